// The second route end to end in core: the real @google/genai client (google-search and
// vertex-ai-search) against the local fake Gemini server, realistic grounding metadata, and the
// grounded turn (ledger, verification from the metadata, metrics, release on every path).

import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { askGrounded, openGroundedInvocations } from '../../../../src/core/groundedAsk';
import { createGoogleSearchModel, createVertexSearchModel } from '../../../../src/core/models/groundedModel';
import type { TurnResult } from '../../../../src/domain/types';
import {
  FAKE_ACCESS_TOKEN,
  FakeGeminiServer,
  errorReply,
  groundedReply,
  splitIntoFrames,
  textReply,
} from '../../../support/fakeGemini';

const WEB = [
  { uri: 'https://a.example.org/leave', title: 'Leave rules' },
  { uri: 'https://b.example.net/parking', title: 'Parking' },
];

describe('built-in grounding: real SDK against the fake Gemini server', function () {
  this.timeout(30_000);
  let server: FakeGeminiServer;
  const google = (extra: Partial<Parameters<typeof createGoogleSearchModel>[0]> = {}) =>
    createGoogleSearchModel({ apiKey: 'test-key', baseUrl: server.baseUrl, backoffMs: 5, timeoutMs: 3000, ...extra });
  const ask = (
    question: string,
    extra: Parameters<typeof google>[0] = {},
    more: Partial<Parameters<typeof askGrounded>[1]> = {},
  ): Promise<TurnResult> => askGrounded(question, { model: google(extra), ...more });

  before(async () => {
    server = await FakeGeminiServer.start();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterEach(() => {
    assert.equal(openGroundedInvocations(), 0, 'the ledger is released after every turn');
  });
  after(async () => {
    await server.close();
  });

  it('finds a segment after 4-byte and 2-byte characters by its text (raw byte offsets would land elsewhere)', async () => {
    // "🏖️" is 7 UTF-8 bytes and 3 UTF-16 units; "ß" 2 bytes and 1 unit: raw offsets would land elsewhere.
    const text = '🏖️ Straße leave: staff get 25 days. Staff get 25 days. Parking is free.';
    server.enqueue(
      groundedReply(text, WEB, [
        // Only the second "Staff get 25 days." is supported (indexOf of the capitalised one finds it).
        { text: 'Staff get 25 days.', chunks: [0] },
        { text: 'Parking is free.', chunks: [1] },
      ]),
    );
    const result = await ask('How many leave days?');
    const verdicts = result.sentences.map((s) => [s.text, s.verdict, s.citations.join(',')]);
    assert.deepEqual(verdicts, [
      ['🏖️ Straße leave: staff get 25 days.', 'dropped', ''],
      ['Staff get 25 days.', 'kept', 'E1'],
      ['Parking is free.', 'kept', 'E2'],
    ]);
    assert.equal(result.answer, 'Staff get 25 days. Parking is free.');
    assert.equal(result.metrics.coverage, 2 / 3);
  });

  it('picks the repeated segment occurrence nearest its byte offset', async () => {
    const text = 'Über den Fluss: Ferries run hourly. Ferries run hourly.';
    const reply = groundedReply(text, WEB, [{ text: 'Ferries run hourly.', chunks: [0] }]);
    // Point the support at the SECOND occurrence (in bytes), as the service would.
    const body = reply.body as {
      candidates: Array<{
        groundingMetadata: { groundingSupports: Array<{ segment: { startIndex: number; endIndex: number } }> };
      }>;
    };
    const second = Buffer.byteLength(text.slice(0, text.lastIndexOf('Ferries run hourly.')));
    body.candidates[0].groundingMetadata.groundingSupports[0].segment = {
      ...body.candidates[0].groundingMetadata.groundingSupports[0].segment,
      startIndex: second,
      endIndex: second + 19,
    };
    server.enqueue(reply);
    const result = await ask('Ferries?');
    assert.deepEqual(
      result.sentences.map((s) => [s.text, s.verdict]),
      [
        ['Über den Fluss: Ferries run hourly.', 'dropped'],
        ['Ferries run hourly.', 'kept'],
      ],
    );
  });

  it('streams drafts; the metadata arrives only in the last frame and verification runs on the final text', async () => {
    const text = 'Desks are booked a day ahead. Lockers are assigned by the office manager. Coffee is free.';
    const reply = groundedReply(text, WEB, [
      { text: 'Desks are booked a day ahead.', chunks: [0] },
      { text: 'Lockers are assigned by the office manager.', chunks: [0, 1] },
    ]);
    const frames = splitIntoFrames(reply.body) as Array<{ candidates: Array<{ groundingMetadata?: unknown }> }>;
    assert.ok(frames.length >= 3);
    assert.deepEqual(
      frames.map((f) => f.candidates[0].groundingMetadata !== undefined),
      [...frames.slice(1).map(() => false), true],
    );
    server.enqueue({ frames, frameDelayMs: 5 });
    const drafts: string[] = [];
    const result = await ask('Desks?', {}, { onDraft: (d) => drafts.push(d) });
    assert.ok(server.requests[0].sse);
    assert.equal(drafts.length, frames.length);
    assert.equal(drafts[drafts.length - 1], text, 'drafts stream untouched, the dropped sentence included');
    assert.deepEqual(
      result.sentences.map((s) => s.citations),
      [['E1'], ['E1', 'E2'], []],
    );
    assert.equal(result.answer, 'Desks are booked a day ahead. Lockers are assigned by the office manager.');
  });

  it('does not use a support with no segment text (offsets alone are not trusted), and says so', async () => {
    const text = 'Visitors sign in at reception. Badges are returned at exit.';
    server.enqueue(
      groundedReply(text, WEB, [
        { text: 'Visitors sign in at reception.', chunks: [0] },
        { text: 'Badges are returned at exit.', chunks: [1], omitText: true },
      ]),
    );
    const result = await ask('Visitors?');
    assert.deepEqual(
      result.sentences.map((s) => s.verdict),
      ['kept', 'dropped'],
    );
    assert.match(result.sentences[1].reason, /^no-grounding-support/);
    assert.match(
      result.notices.map((n) => n.text).join('\n'),
      /1 grounding support was not used: the segment has no text/,
    );
    assert.equal(
      result.grounding?.supports[1].ignored,
      'the segment has no text (its byte offsets alone are not trusted)',
    );
  });

  it('ignores a chunk index out of range: a support naming only bad chunks backs nothing; valid ones keep their chunk', async () => {
    const text = 'The gym opens at six. Showers close at ten.';
    server.enqueue(
      groundedReply(text, WEB, [
        { text: 'The gym opens at six.', chunks: [7] },
        { text: 'Showers close at ten.', chunks: [1, 5] },
      ]),
    );
    const result = await ask('Gym?');
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.citations]),
      [
        ['dropped', []],
        ['kept', ['E2']],
      ],
    );
    assert.match(result.notices.map((n) => n.text).join('\n'), /chunk index 7 is not among the 2 chunks/);
    assert.deepEqual(
      result.evidence.map((e) => e.id),
      ['E1', 'E2'],
    );
  });

  it('abstains when the response has no grounding metadata at all, and says why', async () => {
    server.enqueue(textReply('The canteen serves lunch from noon. It closes at two.'));
    const result = await ask('Canteen?');
    assert.equal(result.abstained, true);
    assert.equal(result.answer, 'NOT_FOUND: the search results do not support an answer.');
    assert.deepEqual(
      result.sentences.map((s) => s.code),
      ['no-grounding-support', 'no-grounding-support'],
    );
    assert.deepEqual(result.metrics, { retrieved: 0, coverage: 0, dropped: 2, abstained: true });
    assert.match(result.notices.map((n) => n.text).join('\n'), /no grounding metadata/);
    assert.equal(result.abstainedBy, 'verifier');
  });

  it("passes the model's own NOT_FOUND through as an abstention", async () => {
    server.enqueue(textReply('NOT_FOUND: no result names the canteen hours.'));
    const result = await ask('Canteen?');
    assert.equal(result.abstained, true);
    assert.equal(result.answer, 'NOT_FOUND: no result names the canteen hours.');
    assert.equal(result.abstainedBy, 'model');
  });

  it('keeps a sentence only when supported segments cover all of it', async () => {
    const text = 'Bikes are parked in the basement and charged for free overnight.';
    server.enqueue(groundedReply(text, WEB, [{ text: 'Bikes are parked in the basement', chunks: [1] }]));
    const result = await ask('Bikes?');
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.match(
      result.sentences[0].reason,
      /^no-grounding-support: only \d+% of the sentence lies in supported segments/,
    );
    assert.deepEqual(result.sentences[0].citations, ['E2']);
  });

  it('records the confidence scores when the service gives them', async () => {
    server.enqueue(
      groundedReply('Lockers are free.', WEB, [{ text: 'Lockers are free.', chunks: [0], confidence: [0.42] }]),
    );
    const result = await ask('Lockers?');
    assert.equal(result.grounding?.supports[0].confidence, 0.42);
  });

  it('gives clear errors on 403 and 429 (retried), and releases the ledger', async () => {
    server.enqueue(errorReply(403, 'The caller does not have permission'));
    await assert.rejects(
      ask('q?'),
      /Gemini \+ Google Search refused the credentials \(HTTP 403\): The caller does not have permission/,
    );
    server.enqueue(errorReply(429), errorReply(429));
    await assert.rejects(ask('q?', { attempts: 2 }), /quota or rate limit reached \(HTTP 429\) after 2 attempts/);
    assert.equal(server.requests.length, 3);
  });

  it('cancels mid-stream and releases the ledger', async () => {
    const reply = groundedReply('One. Two. Three. Four. Five. Six. Seven. Eight.', WEB, []);
    server.enqueue({ frames: splitIntoFrames(reply.body), frameDelayMs: 2000 });
    const controller = new AbortController();
    const pending = ask('Count?', {}, { signal: controller.signal, onDraft: () => controller.abort() });
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
  });

  describe('vertex-ai-search', () => {
    const datastore = 'projects/acme/locations/global/collections/default_collection/dataStores/handbook';

    it('with chunks that carry text, the lexical check also runs: a covered sentence the chunk contradicts is dropped', async () => {
      const text = 'Expense reports are due within 30 days. Receipts are kept for 9 years.';
      server.enqueue(
        groundedReply(
          text,
          [
            {
              uri: 'gs://acme/expenses.md',
              title: 'Expenses',
              text: 'Expense reports are due within 30 days of travel.',
            },
            { uri: 'gs://acme/records.md', title: 'Records', text: 'Receipts are kept for 7 years.' },
          ],
          [
            { text: 'Expense reports are due within 30 days.', chunks: [0] },
            { text: 'Receipts are kept for 9 years.', chunks: [1] },
          ],
        ),
      );
      const result = await askGrounded('Expenses?', {
        model: createVertexSearchModel({ datastore, apiKey: 'vk', baseUrl: server.baseUrl, timeoutMs: 3000 }),
      });
      assert.deepEqual(
        result.sentences.map((s) => [s.verdict, s.code, s.tier]),
        [
          ['kept', 'supported', 'lexical'],
          ['dropped', 'value-mismatch', 'lexical'],
        ],
      );
      assert.equal(result.evidence[1].text, 'Receipts are kept for 7 years.');
      assert.equal(result.model, 'vertex-ai-search:gemini-2.5-flash');
    });

    it('with application default credentials: a token from the metadata server, project and location in the path', async () => {
      const saved = { ...process.env };
      // A home of its own: a gcloud configuration in the real one (~/.config/gcloud) is read before the metadata server.
      const home = await mkdtemp(path.join(os.tmpdir(), 'evident-adc-'));
      process.env.HOME = home;
      delete process.env.CLOUDSDK_CONFIG;
      // google-auth-library finds ADC on a "GCE metadata server": here, the fake.
      process.env.GCE_METADATA_HOST = new URL(server.baseUrl).host;
      process.env.METADATA_SERVER_DETECTION = 'assume-present';
      delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      delete process.env.GOOGLE_API_KEY;
      delete process.env.GEMINI_API_KEY;
      try {
        server.enqueue(
          groundedReply(
            'Badges open every door.',
            [{ uri: 'gs://acme/badges.md', title: 'Badges', text: 'Badges open every door.' }],
            [{ text: 'Badges open every door.', chunks: [0] }],
          ),
        );
        const model = createVertexSearchModel({
          datastore,
          filter: 'lang: ANY("en")',
          maxResults: 3,
          location: 'us-central1',
          baseUrl: server.baseUrl,
          timeoutMs: 20_000,
        }); // the token round trip is slow on a loaded machine
        const result = await askGrounded('Badges?', { model });
        assert.equal(result.sentences[0].verdict, 'kept');
        const request = server.requests[0];
        assert.equal(request.authorization, `Bearer ${FAKE_ACCESS_TOKEN}`);
        assert.equal(request.apiKey, undefined);
        assert.equal(request.project, 'acme');
        assert.equal(request.location, 'us-central1');
        assert.deepEqual(request.body.tools, [
          { retrieval: { vertexAiSearch: { datastore, filter: 'lang: ANY("en")', maxResults: 3 } } },
        ]);
      } finally {
        for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
        Object.assign(process.env, saved);
        await rm(home, { recursive: true, force: true });
      }
    });

    it('without any Google Cloud credentials: says how to get them, and sends nothing', async () => {
      const saved = { ...process.env };
      const home = await mkdtemp(path.join(os.tmpdir(), 'evident-no-adc-'));
      process.env.HOME = home; // no gcloud application default credentials file here
      process.env.METADATA_SERVER_DETECTION = 'none'; // not on Google Cloud
      delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      delete process.env.GOOGLE_API_KEY;
      delete process.env.GEMINI_API_KEY;
      delete process.env.GCE_METADATA_HOST;
      try {
        server.requests.length = 0;
        const model = createVertexSearchModel({ datastore, baseUrl: server.baseUrl, timeoutMs: 5000, attempts: 1 });
        await assert.rejects(
          askGrounded('q?', { model }),
          /Vertex AI Search: no Google Cloud credentials found\. Run "gcloud auth application-default login"/,
        );
        assert.equal(server.requests.length, 0);
      } finally {
        for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
        Object.assign(process.env, saved);
        await rm(home, { recursive: true, force: true });
      }
    });

    it('refuses a malformed data store name and max results outside 1..10', () => {
      assert.throws(() => createVertexSearchModel({ datastore: 'handbook' }), /not a Vertex AI Search data store name/);
      assert.throws(
        () => createVertexSearchModel({ datastore, maxResults: 0 }),
        /max results must be an integer from 1 to 10/,
      );
    });
  });
});
