// A failed turn says one plain sentence and the kind of failure; the raw error (status, JSON) never reaches the user.

import { strict as assert } from 'node:assert';
import { describeTurnError, noDocumentsError, timeoutError } from '../../../src/host/turnErrors';
import { GeminiError } from '../../../src/core/models/geminiModel';

const REJECTED_KEY_JSON =
  'Gemini rejected the request (HTTP 400): {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}';

describe('turn errors in plain words', () => {
  it('turns a rejected API key (Google JSON and all) into one sentence with the way forward', () => {
    const failure = describeTurnError(new GeminiError(REJECTED_KEY_JSON, 400));
    assert.equal(failure.kind, 'api-key');
    assert.equal(failure.message, 'Gemini did not accept the API key: set a valid key, or switch to the offline model.');
    assert.equal(describeTurnError(new GeminiError('Gemini refused the API key (HTTP 403). Check the key.', 403)).kind, 'api-key');
    assert.equal(describeTurnError(new Error('No Gemini API key: run "Evident: Set Gemini API Key".')).kind, 'api-key');
  });

  it('names quota, server, network and time-outs, and keeps JSON out of anything else', () => {
    assert.equal(describeTurnError(new GeminiError('Gemini quota or rate limit reached (HTTP 429) after 3 attempts. Try again later.', 429)).kind, 'quota');
    assert.equal(describeTurnError(new GeminiError('Gemini had a server error (HTTP 503) after 3 attempts.', 503)).kind, 'model');
    assert.equal(describeTurnError(new GeminiError('Could not reach Gemini: fetch failed')).kind, 'network');
    assert.equal(describeTurnError(new GeminiError('Gemini did not answer within 60 s (3 attempts).')).kind, 'timeout');
    const malformed = describeTurnError(new GeminiError('Gemini sent a reply that is not valid JSON (Unexpected end of JSON input): a proxy or the service may be failing.', undefined, 'malformed-reply'));
    assert.deepEqual(malformed, { kind: 'model', message: 'Gemini sent a reply that could not be read: try again, or switch to the offline model.' });
    const other = describeTurnError(new Error('Unexpected token in {"weird": [1, 2, 3]} at position 4'));
    assert.equal(other.kind, 'other');
    assert.doesNotMatch(other.message, /[{}[\]]/);
    assert.match(other.message, /^Something went wrong while answering \(Unexpected token in\): see the log/);
    for (const failure of [describeTurnError(new GeminiError(REJECTED_KEY_JSON, 400)), other, timeoutError(30)]) {
      assert.equal(failure.message.split(/(?<=[.!?])\s/).length, 1, `one sentence: ${failure.message}`);
    }
    assert.match(timeoutError(30).message, /within 30\ss/);
  });

  it('a question with nothing indexed names the real cause (the skipped file and why), in full, as its own kind', () => {
    const skipped = { files: [{ path: 'handbook.md', reason: 'too large (5.0 MB; the limit is 2 MB)' }], total: 1 };
    const failure = noDocumentsError({ state: 'indexed', documents: 0, passages: 0, retrieval: 'lexical', skipped });
    assert.ok(failure);
    const described = describeTurnError(failure);
    assert.equal(described.kind, 'no-documents');
    assert.match(described.message, /handbook\.md \(too large \(5\.0 MB; the limit is 2 MB\)\)\. Split a file .* to index other files\.$/);
    assert.equal(noDocumentsError({ state: 'indexed', documents: 3, passages: 9, retrieval: 'lexical' }), undefined, 'something to answer from');
    assert.equal(noDocumentsError({ state: 'indexing', documents: 0, passages: 0, retrieval: 'lexical' }), undefined, 'not built yet');
    assert.equal(noDocumentsError({ state: 'indexed', documents: 0, passages: 0, retrieval: 'lexical', store: 'shared index' }), undefined, 'a shared index says so itself');
  });

  it('keeps an index error\'s first sentence whole, parentheses and all (it was cut mid-word at 140 characters)', () => {
    const raw = 'There are no documents to answer from: no Markdown passages are indexed from /home/someone/projects/handbook/exported (add .md files, or check the include/exclude patterns and the skipped files). More.';
    const failure = describeTurnError(new Error(raw));
    assert.equal(failure.kind, 'index');
    assert.equal(failure.message, raw.slice(0, raw.indexOf(' More.')));
  });
});
