// A failed turn says one plain sentence and the kind of failure, told by the error's code (never
// its words); the raw error (status, JSON) never reaches the user.

import { strict as assert } from 'node:assert';
import { describeTurnError, indexFailure, noDocumentsError, timeoutError } from '../../../src/host/turnErrors';
import { HostError } from '../../../src/host/errorCodes';
import { GeminiError } from '../../../src/core/models/geminiModel';
import { StoreError } from '../../../src/core/store/passageStore';
import { IndexWorkerStopped } from '../../../src/core/store/workerPassageStore';

const REJECTED_KEY_JSON =
  'Gemini rejected the request (HTTP 400): {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}';

describe('turn errors in plain words', () => {
  it('turns a rejected API key (Google JSON and all) into one sentence with the way forward', () => {
    const failure = describeTurnError(new GeminiError(REJECTED_KEY_JSON, 400, 'credentials'));
    assert.equal(failure.kind, 'api-key');
    assert.equal(
      failure.message,
      'Gemini did not accept the API key: set a valid key, or switch to the offline model.',
    );
    assert.equal(
      describeTurnError(
        new GeminiError('Gemini refused the credentials (HTTP 403). Check the key.', 403, 'credentials'),
      ).kind,
      'api-key',
    );
    const noKey = describeTurnError(new HostError('No Gemini API key: run "Evident: Set Gemini API Key".', 'no-key'));
    assert.deepEqual(noKey, {
      kind: 'api-key',
      message: 'No Gemini API key is set: set one, or switch to the offline model.',
    });
    assert.deepEqual(describeTurnError(new GeminiError('No Gemini API key: set one.', undefined, 'no-key')), noKey);
  });

  it('names quota, server, network and time-outs by code, and keeps JSON out of anything else', () => {
    assert.equal(
      describeTurnError(
        new GeminiError(
          'Gemini quota or rate limit reached (HTTP 429) after 3 attempts. Try again later.',
          429,
          'quota',
        ),
      ).kind,
      'quota',
    );
    assert.deepEqual(
      describeTurnError(new GeminiError('Gemini had a server error (HTTP 503) after 3 attempts.', 503, 'server')),
      {
        kind: 'model',
        message: 'Gemini had a server error: try again, or switch to the offline model.',
      },
    );
    assert.equal(
      describeTurnError(new GeminiError('Could not reach Gemini: fetch failed', undefined, 'network')).kind,
      'network',
    );
    assert.equal(
      describeTurnError(new GeminiError('Gemini did not answer within 60 s (3 attempts).', undefined, 'timeout')).kind,
      'timeout',
    );
    const malformed = describeTurnError(
      new GeminiError(
        'Gemini sent a reply that is not valid JSON (Unexpected end of JSON input): a proxy or the service may be failing.',
        undefined,
        'malformed-reply',
      ),
    );
    assert.deepEqual(malformed, {
      kind: 'model',
      message: 'Gemini sent a reply that could not be read: try again, or switch to the offline model.',
    });
    assert.deepEqual(
      describeTurnError(new GeminiError('Gemini rejected the request (HTTP 400): {"error":{}}', 400, 'rejected')),
      {
        kind: 'model',
        message: 'The model refused the request (HTTP 400): try again, or switch to the offline model.',
      },
    );
    const other = describeTurnError(new Error('Unexpected token in {"weird": [1, 2, 3]} at position 4'));
    assert.equal(other.kind, 'other');
    assert.doesNotMatch(other.message, /[{}[\]]/);
    assert.match(other.message, /^Something went wrong while answering \(Unexpected token in\): see the log/);
    for (const failure of [
      describeTurnError(new GeminiError(REJECTED_KEY_JSON, 400, 'credentials')),
      other,
      timeoutError(30),
    ]) {
      assert.equal(failure.message.split(/(?<=[.!?])\s/).length, 1, `one sentence: ${failure.message}`);
    }
    assert.match(timeoutError(30).message, /within 30\ss/);
  });

  it('reads nothing into the words of an error without a code (they once decided its kind)', () => {
    for (const words of [
      'No Gemini API key: run "Evident: Set Gemini API Key".',
      'The API key is wrong.',
      'Gemini did not answer within 60 s.',
      'The language model failed: boom',
      'The index is not indexed',
      'Gemini rejected the request (HTTP 401)',
    ]) {
      assert.equal(describeTurnError(new Error(words)).kind, 'other', words);
    }
  });

  it("a foreign error with no code of ours: Node's system code still says the network is missing (on the error or a fetch's cause)", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
    assert.equal(describeTurnError(refused).kind, 'network');
    assert.equal(
      describeTurnError(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }),
        }),
      ).kind,
      'network',
    );
    assert.equal(
      describeTurnError(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })).kind,
      'other',
    );
  });

  it("a VS Code language model's failure keeps its own first sentence and offers the offline model", () => {
    assert.deepEqual(
      describeTurnError(
        new HostError(
          'Evident may not use this language model: accept the consent prompt. More words.',
          'language-model',
        ),
      ),
      {
        kind: 'model',
        message: 'Evident may not use this language model: accept the consent prompt. Or switch to the offline model.',
      },
    );
  });

  it("an index that cannot answer (the host's, a store's, a stopped worker) says its first sentence, as an index failure", () => {
    const cases = [
      new HostError('The workspace is not indexed yet: run "Evident: Reindex Workspace Docs".', 'index-unavailable'),
      new StoreError(
        'The shared index at db.example/docs is unreachable (ECONNREFUSED). Check that the server is up.',
        'unreachable',
      ),
      new StoreError('The shared index has never been indexed: its indexer runs "evident index".', 'not-indexed'),
      new StoreError('The shared index holds vectors of model-a. Use --embedding-model model-a.', 'model-mismatch'),
      new StoreError('The shared index was written by a newer Evident. Update.', 'schema-newer'),
      new StoreError('The store must be a postgres://… connection string. Fix it.', 'setup'),
      new StoreError('The role may not read the shared index. Grant it.', 'permission'),
      new IndexWorkerStopped('exit code 1'),
    ];
    for (const error of cases) {
      const failure = describeTurnError(error);
      assert.equal(failure.kind, 'index', error.message);
      assert.equal(failure.message, `${error.message.split(/(?<=\.) /)[0]}`, error.message);
    }
  });

  it('a question with nothing indexed names the real cause (the skipped file and why), in full, as its own kind', () => {
    const skipped = { files: [{ path: 'handbook.md', reason: 'too large (5.0 MB; the limit is 2 MB)' }], total: 1 };
    const failure = noDocumentsError({ state: 'indexed', documents: 0, passages: 0, retrieval: 'lexical', skipped });
    assert.ok(failure);
    const described = describeTurnError(failure);
    assert.equal(described.kind, 'no-documents');
    assert.match(
      described.message,
      /handbook\.md \(too large \(5\.0 MB; the limit is 2 MB\)\)\. Split a file .* to index other files\.$/,
    );
    assert.equal(
      noDocumentsError({ state: 'indexed', documents: 3, passages: 9, retrieval: 'lexical' }),
      undefined,
      'something to answer from',
    );
    assert.equal(
      noDocumentsError({ state: 'indexing', documents: 0, passages: 0, retrieval: 'lexical' }),
      undefined,
      'not built yet',
    );
    assert.equal(
      noDocumentsError({ state: 'indexed', documents: 0, passages: 0, retrieval: 'lexical', store: 'shared index' }),
      undefined,
      'a shared index says so itself',
    );
  });

  it("keeps an index error's first sentence whole, parentheses and all (it was cut mid-word at 140 characters)", () => {
    const raw =
      'There are no documents to answer from: no Markdown passages are indexed from /home/someone/projects/handbook/exported (add .md files, or check the include/exclude patterns and the skipped files). More.';
    const failure = describeTurnError(new StoreError(raw, 'not-indexed'));
    assert.equal(failure.kind, 'index');
    assert.equal(failure.message, raw.slice(0, raw.indexOf(' More.')));
  });

  it('opening or indexing the workspace failed, whatever the error (a Node error from the worker too): an index failure with its first sentence', () => {
    const described = describeTurnError(
      indexFailure(
        Object.assign(new Error('ENOSPC: no space left on device, write. Free some space.'), { code: 'ENOSPC' }),
      ),
    );
    assert.deepEqual(described, { kind: 'index', message: 'ENOSPC: no space left on device, write.' });
  });
});
