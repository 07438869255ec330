// The fake Gemini server driven by the REAL @google/genai client: if these pass, tests that
// use the fake exercise the same wire shapes, streaming and errors as production code.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, GoogleGenAI, type Content } from '@google/genai';
import {
  FakeGeminiServer,
  errorReply,
  functionCallReply,
  groundedReply,
  hangReply,
  splitIntoFrames,
  textReply,
} from '../../support/fakeGemini';
import {
  LAUNDERED_SENTENCE,
  findEvidenceText,
  firstSentence,
  modeScript,
  parseScript,
} from '../../support/fakeGeminiModes';

const MODEL = 'gemini-2.5-flash';

describe('fake Gemini server (real @google/genai client)', () => {
  let server: FakeGeminiServer;
  let ai: GoogleGenAI;

  let seen: string[];

  beforeEach(async () => {
    seen = [];
    server = await FakeGeminiServer.start({ onRequest: (req) => seen.push(req.method) });
    ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.baseUrl, apiVersion: 'v1beta' } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('round-trips a function call and records both requests', async () => {
    server.enqueue(
      functionCallReply('searchPolicies', { query: 'refund window' }),
      textReply('Annual plans are refundable [E1].'),
    );
    const tools = [
      {
        functionDeclarations: [
          { name: 'searchPolicies', description: 'search', parametersJsonSchema: { type: 'object' } },
        ],
      },
    ];
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Can I get a refund?' }] }];

    const first = await ai.models.generateContent({ model: MODEL, contents, config: { tools } });
    assert.deepEqual(
      first.functionCalls?.map((c) => [c.name, c.args]),
      [['searchPolicies', { query: 'refund window' }]],
    );

    contents.push(first.candidates![0].content!);
    contents.push({
      role: 'user',
      parts: [{ functionResponse: { name: 'searchPolicies', response: { passages: [{ id: 'E1', text: 'x' }] } } }],
    });
    const second = await ai.models.generateContent({ model: MODEL, contents, config: { tools } });
    assert.equal(second.text, 'Annual plans are refundable [E1].');

    assert.equal(server.requests.length, 2);
    assert.equal(seen.length, 2, 'onRequest saw both');
    assert.equal(server.requests[0].model, MODEL);
    assert.equal(server.requests[0].method, 'generateContent');
    assert.equal(server.requests[0].apiVersion, 'v1beta');
    assert.equal(server.requests[0].apiKey, 'test-key');
    const sentTools = server.requests[0].body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>;
    assert.equal(sentTools[0].functionDeclarations[0].name, 'searchPolicies');
    const sentContents = server.requests[1].body.contents as Content[];
    assert.equal(sentContents.length, 3);
    assert.equal(sentContents[2].parts![0].functionResponse!.name, 'searchPolicies');
  });

  it('streams text over several SSE frames, the last carrying finishReason and usage', async () => {
    const text = 'Monthly plans are not refundable [E1]. Annual plans are refundable pro rata [E2].';
    server.enqueue(textReply(text));
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'refunds?' })) {
      chunks.push(chunk);
    }

    assert.ok(chunks.length >= 3, `expected several frames, got ${chunks.length}`);
    assert.equal(chunks.map((c) => c.text ?? '').join(''), text);
    assert.equal(chunks[chunks.length - 1].candidates?.[0].finishReason, 'STOP');
    assert.ok(chunks[chunks.length - 1].usageMetadata?.totalTokenCount);
    assert.equal(chunks[0].candidates?.[0].finishReason, undefined);
    assert.equal(server.requests[0].method, 'streamGenerateContent');
    assert.equal(server.requests[0].sse, true);
  });

  it('streams grounding metadata in the last frame only, with UTF-8 byte offsets', async () => {
    const text = 'Café hours are 9–5. Parking is free.';
    server.enqueue(
      groundedReply(text, [{ uri: 'https://example.org/a', title: 'A' }], [{ text: 'Parking is free.', chunks: [0] }]),
    );
    const chunks = [];
    for await (const chunk of await ai.models.generateContentStream({
      model: MODEL,
      contents: 'q',
      config: { tools: [{ googleSearch: {} }] },
    })) {
      chunks.push(chunk);
    }
    const withGrounding = chunks.filter((c) => c.candidates?.[0].groundingMetadata);
    assert.equal(withGrounding.length, 1);
    assert.equal(withGrounding[0], chunks[chunks.length - 1]);
    const support = withGrounding[0].candidates![0].groundingMetadata!.groundingSupports![0];
    const bytes = Buffer.from(chunks.map((c) => c.text ?? '').join(''));
    assert.equal(bytes.subarray(support.segment!.startIndex, support.segment!.endIndex).toString(), 'Parking is free.');
    assert.ok(support.segment!.startIndex! > text.indexOf('Parking'), 'byte offset differs from the JS string offset');
    assert.throws(() => groundedReply('abc', [], [{ text: 'zzz', chunks: [0] }]), /not part of the answer text/);
  });

  it('streams a function call in the final frame', async () => {
    server.enqueue(functionCallReply('searchPolicies', { query: 'leave' }));
    const calls = [];
    for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'leave?' })) {
      calls.push(...(chunk.functionCalls ?? []));
    }
    assert.deepEqual(
      calls.map((c) => c.name),
      ['searchPolicies'],
    );
  });

  it('surfaces a 429 as ApiError with status 429 and the Google error message', async () => {
    server.enqueue(errorReply(429, 'Quota exceeded for fake'));
    await assert.rejects(ai.models.generateContent({ model: MODEL, contents: 'hi' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.match(error.message, /Quota exceeded for fake/);
      assert.match(error.message, /RESOURCE_EXHAUSTED/);
      return true;
    });
  });

  it('surfaces a 429 on the streaming call too', async () => {
    server.enqueue(errorReply(429));
    await assert.rejects(
      (async () => {
        for await (const _chunk of await ai.models.generateContentStream({ model: MODEL, contents: 'hi' })) void _chunk;
      })(),
      (error: unknown) => error instanceof ApiError && error.status === 429,
    );
  });

  it('answers 500 "no scripted reply left" when the queue is empty', async () => {
    await assert.rejects(ai.models.generateContent({ model: MODEL, contents: 'hi' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 500);
      assert.match(error.message, /no scripted reply left/);
      return true;
    });
  });

  it('lets a hanging request be aborted by the caller', async () => {
    server.enqueue(hangReply());
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(
      ai.models.generateContent({ model: MODEL, contents: 'hi', config: { abortSignal: controller.signal } }),
      (error: unknown) => {
        assert.equal((error as Error).name, 'AbortError');
        return true;
      },
    );
    assert.ok(Date.now() - started < 5000);
  });

  it('a hang with a body answers after the delay', async () => {
    server.enqueue({ ...textReply('late'), hangMs: 50 });
    const response = await ai.models.generateContent({ model: MODEL, contents: 'hi' });
    assert.equal(response.text, 'late');
  });

  it('close() ends a request that is still hanging', async () => {
    server.enqueue(hangReply());
    const pending = ai.models.generateContent({ model: MODEL, contents: 'hi' });
    const settled = pending.then(
      () => 'resolved',
      () => 'rejected',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    assert.equal(await settled, 'rejected');
  });

  it('uses the dynamic script once the queue is empty, and the queue first', async () => {
    server.enqueue(textReply('queued'));
    server.respondWith((req) => textReply(`dynamic for ${req.model}`));
    assert.equal((await ai.models.generateContent({ model: MODEL, contents: 'a' })).text, 'queued');
    assert.equal(
      (await ai.models.generateContent({ model: 'other-model', contents: 'b' })).text,
      'dynamic for other-model',
    );
  });

  it('rejects unknown routes and bad JSON with Google-style errors', async () => {
    const notFound = await fetch(`${server.baseUrl}/v1beta/models/x:countTokens`, { method: 'POST', body: '{}' });
    assert.equal(notFound.status, 404);
    assert.match(((await notFound.json()) as { error: { message: string } }).error.message, /no route/);
    const bad = await fetch(`${server.baseUrl}/v1beta/models/x:generateContent`, { method: 'POST', body: '{oops' });
    assert.equal(bad.status, 400);
    assert.equal(server.requests.length, 0);
  });

  it('answers a stream without alt=sse as one JSON array', async () => {
    server.enqueue(textReply('one two three four five six seven eight nine ten eleven twelve thirteen'));
    const res = await fetch(`${server.baseUrl}/v1/models/x:streamGenerateContent`, { method: 'POST', body: '{}' });
    const frames = (await res.json()) as unknown[];
    assert.ok(Array.isArray(frames) && frames.length > 1);
  });
});

describe('fake Gemini frame splitting', () => {
  it('keeps the text intact and puts grounding metadata only in the last frame', () => {
    const body = {
      ...(textReply('A fairly long answer that should be split into pieces.').body as Record<string, unknown>),
    };
    (body.candidates as Array<Record<string, unknown>>)[0].groundingMetadata = { groundingChunks: [] };
    const frames = splitIntoFrames(body) as Array<{
      candidates: Array<{ content: { parts: Array<{ text: string }> }; groundingMetadata?: unknown }>;
    }>;
    assert.equal(
      frames.map((f) => f.candidates[0].content.parts[0].text).join(''),
      'A fairly long answer that should be split into pieces.',
    );
    assert.deepEqual(
      frames.map((f) => f.candidates[0].groundingMetadata !== undefined),
      frames.map((_f, i) => i === frames.length - 1),
    );
  });
});

describe('fake Gemini modes', () => {
  const ask = { model: MODEL, method: 'generateContent' as const, apiVersion: 'v1beta' as const, sse: false };

  it('cite-first-evidence: searches with the question, then cites E1 twice (one laundered)', () => {
    const script = modeScript('cite-first-evidence');
    const first = script({
      ...ask,
      body: { contents: [{ role: 'user', parts: [{ text: 'How long is the refund window?' }] }] },
    });
    const call = (first.body as { candidates: Array<{ content: { parts: Array<{ functionCall: unknown }> } }> })
      .candidates[0].content.parts[0].functionCall;
    assert.deepEqual(call, { name: 'searchPolicies', args: { query: 'How long is the refund window?' } });

    const second = script({
      ...ask,
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'How long is the refund window?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'searchPolicies', args: {} } }] },
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  name: 'searchPolicies',
                  response: {
                    passages: [{ id: 'E1', text: 'Annual plans are refundable within 90 days. Other text.' }],
                  },
                },
              },
            ],
          },
        ],
      },
    });
    const text = (second.body as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0]
      .content.parts[0].text;
    assert.equal(text, `Annual plans are refundable within 90 days. [E1] ${LAUNDERED_SENTENCE} [E1]`);
  });

  it('abstains when the tool returned no E1', () => {
    const reply = modeScript('cite-first-evidence')({
      ...ask,
      body: {
        contents: [
          { role: 'user', parts: [{ functionResponse: { name: 'searchPolicies', response: { passages: [] } } }] },
        ],
      },
    });
    const text = (reply.body as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0]
      .content.parts[0].text;
    assert.match(text, /^NOT_FOUND: /);
  });

  it('finds evidence text in object and string tool results', () => {
    assert.equal(
      findEvidenceText(
        {
          results: [
            { evidenceId: 'E2', text: 'no' },
            { evidenceId: 'E1', text: 'yes' },
          ],
        },
        'E1',
      ),
      'yes',
    );
    assert.equal(findEvidenceText({ content: '[E1] First passage.\n[E2] Second.' }, 'E1'), 'First passage.');
    assert.equal(findEvidenceText({ content: '[E10] not this one' }, 'E1'), undefined);
    assert.equal(firstSentence('Travel is booked via Tripline\nmore'), 'Travel is booked via Tripline.');
  });

  it('script files: bad input gives an error naming the file and entry', () => {
    assert.throws(() => parseScript('{', 's.json'), /s\.json: not valid JSON/);
    assert.throws(() => parseScript('{}', 's.json'), /expected a JSON array/);
    assert.throws(() => parseScript('[{"status":"429"}]', 's.json'), /reply 0: "status" must be a non-negative number/);
    assert.throws(() => parseScript('[{"body":{}}, {"sttaus":1}]', 's.json'), /reply 1: unknown field "sttaus"/);
    assert.throws(() => parseScript('[{}]', 's.json'), /needs "body", "frames" or "hangMs"/);
    assert.equal(parseScript('[{"status":429,"body":{}}]', 's.json').length, 1);
  });
});

describe('fakeGeminiMain (command line)', () => {
  const main = join(__dirname, '..', '..', 'support', 'fakeGeminiMain.ts');

  function run(args: string[]): Promise<{ url?: string; stderr: () => string; code: number | null; stop: () => void }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const match = /^listening (\S+)\n/.exec(stdout);
        if (match) resolve({ url: match[1], stderr: () => stderr, code: null, stop: () => child.kill('SIGTERM') });
      });
      child.on('exit', (code) => resolve({ stderr: () => stderr, code, stop: () => undefined }));
    });
  }

  it('serves a script file, then the mode, through the real client', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-gemini-'));
    const script = join(dir, 'script.json');
    await writeFile(script, JSON.stringify([textReply('scripted first'), errorReply(503)]));
    const started = await run(['--script', script, '--mode', 'cite-first-evidence']);
    try {
      assert.ok(started.url, `did not start: ${started.stderr()}`);
      process.env.GOOGLE_GEMINI_BASE_URL = started.url;
      // The env var route the extension uses: no baseUrl in code.
      const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { apiVersion: 'v1beta' } });
      assert.equal((await ai.models.generateContent({ model: MODEL, contents: 'x' })).text, 'scripted first');
      // stderr is a separate pipe: give its data event a moment to arrive.
      for (let i = 0; i < 40 && !/request generateContent/.test(started.stderr()); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.match(started.stderr(), /request generateContent gemini-2\.5-flash contents=1/);
      await assert.rejects(
        ai.models.generateContent({ model: MODEL, contents: 'x' }),
        (e: unknown) => e instanceof ApiError && e.status === 503,
      );
      const third = await ai.models.generateContent({ model: MODEL, contents: 'What is the travel policy?' });
      assert.deepEqual(third.functionCalls?.[0].args, { query: 'What is the travel policy?' });
    } finally {
      delete process.env.GOOGLE_GEMINI_BASE_URL;
      started.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with a clear message on a bad script file or mode', async () => {
    const missing = await run(['--script', '/nonexistent/script.json']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr(), /script\.json: file not found/);
    const badMode = await run(['--mode', 'nonsense']);
    assert.equal(badMode.code, 2);
    assert.match(badMode.stderr(), /unknown mode "nonsense"/);
  });
});
