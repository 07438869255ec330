// Canned conversations for the fake Gemini server, used by the end-to-end tests (through
// fakeGeminiMain.ts) and by unit tests. Each mode is stateless: it reads the request itself,
// so it works for any number of questions in one editor session.

import { readFile } from 'node:fs/promises';
import {
  functionCallReply,
  groundedReply,
  lastFunctionResponses,
  lastUserText,
  textReply,
  type RecordedRequest,
  type ScriptedReply,
} from './fakeGemini';

export const MODES = ['cite-first-evidence', 'fake-id', 'not-found'] as const;
export type FakeGeminiMode = (typeof MODES)[number];

/** The tool the product declares to the model. */
export const SEARCH_TOOL = 'searchPolicies';

/**
 * A sentence no sample or fixture passage supports, cited as if it were: citation laundering.
 * Tests assert the verifier drops it.
 */
export const LAUNDERED_SENTENCE =
  'Every employee also receives a company car and 57 extra vacation days after the first week.';

/**
 * API keys that change how every mode answers, so an end-to-end check can reach a failure
 * without restarting the server: a key Gemini rejects (HTTP 400 API_KEY_INVALID, with Google's
 * JSON error body), and a key whose requests hang until the client gives up.
 */
export const REJECTED_API_KEY = 'e2e-rejected-key';
export const HANGING_API_KEY = 'e2e-hanging-key';
const HANG_FOREVER_MS = 10 * 60_000;

/** Google's reply to a key it does not accept (the shape of the real API's error). */
export function rejectedKeyReply(): ScriptedReply {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ],
      },
    },
  };
}

export function isMode(name: string): name is FakeGeminiMode {
  return (MODES as readonly string[]).includes(name);
}

/**
 * - `cite-first-evidence`: a fresh question → `searchPolicies({query: question})`; after the
 *   tool result → the first sentence of E1 cited `[E1]`, then LAUNDERED_SENTENCE also cited
 *   `[E1]`. No E1 in the tool result → `NOT_FOUND: …`.
 * - `fake-id`: like the above, but cites `[E99]`, an id retrieval never produced.
 * - `not-found`: searches, then abstains.
 * In every mode, REJECTED_API_KEY gets HTTP 400 API_KEY_INVALID and HANGING_API_KEY never gets an answer.
 */
export function modeScript(mode: FakeGeminiMode): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    if (req.apiKey === REJECTED_API_KEY) return rejectedKeyReply();
    if (req.apiKey === HANGING_API_KEY) return { hangMs: HANG_FOREVER_MS };
    const responses = lastFunctionResponses(req.body);
    if (responses.length === 0) {
      return functionCallReply(SEARCH_TOOL, { query: lastUserText(req.body) ?? '' });
    }
    if (mode === 'not-found') return textReply('NOT_FOUND: the policies returned do not answer this question.');
    const first = findEvidenceText(
      responses.map((r) => r.response),
      'E1',
    );
    if (first === undefined) return textReply('NOT_FOUND: no passage was returned for this question.');
    const id = mode === 'fake-id' ? 'E99' : 'E1';
    return textReply(`${firstSentence(first)} [${id}] ${LAUNDERED_SENTENCE} [${id}]`);
  };
}

/**
 * Finds the text the tool returned for an evidence id, whatever the exact response shape:
 * an object carrying the id (`id`, `evidenceId`) and a `text`, or a string starting `[E1]`/`E1:`.
 */
export function findEvidenceText(value: unknown, evidenceId: string): string | undefined {
  if (typeof value === 'string') {
    const match = new RegExp(`(?:^|\\n)\\s*\\[?${evidenceId}\\]?[:\\]\\s-]+([^\\n]+)`).exec(value);
    return match ? match[1].trim() : undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findEvidenceText(item, evidenceId);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const id = record.id ?? record.evidenceId ?? record.evidence_id;
    if (id === evidenceId && typeof record.text === 'string') return record.text;
    for (const child of Object.values(record)) {
      const found = findEvidenceText(child, evidenceId);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** First sentence (or line) of a passage, with a closing full stop. */
export function firstSentence(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const match = /^(.+?[.!?])(?=\s|$)/.exec(line);
  const sentence = (match ? match[1] : line).trim();
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Reads a script file: a JSON array of ScriptedReply objects. Errors name the file and entry. */
export async function readScriptFile(file: string): Promise<ScriptedReply[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`${file}: ${code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? String(error)})`}`);
  }
  return parseScript(text, file);
}

export function parseScript(text: string, file: string): ScriptedReply[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value)) throw new Error(`${file}: expected a JSON array of scripted replies`);
  return value.map((entry: unknown, index) => {
    const where = `${file}: reply ${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new Error(`${where}: expected an object`);
    }
    const reply = entry as Record<string, unknown>;
    for (const key of Object.keys(reply)) {
      if (!['status', 'body', 'hangMs', 'frames', 'frameDelayMs'].includes(key)) {
        throw new Error(`${where}: unknown field "${key}"`);
      }
    }
    for (const key of ['status', 'hangMs', 'frameDelayMs']) {
      if (
        reply[key] !== undefined &&
        (typeof reply[key] !== 'number' || !Number.isFinite(reply[key]) || (reply[key] as number) < 0)
      ) {
        throw new Error(`${where}: "${key}" must be a non-negative number`);
      }
    }
    if (reply.frames !== undefined && !Array.isArray(reply.frames)) {
      throw new Error(`${where}: "frames" must be an array`);
    }
    if (reply.body === undefined && reply.frames === undefined && reply.hangMs === undefined) {
      throw new Error(`${where}: needs "body", "frames" or "hangMs"`);
    }
    return reply as ScriptedReply;
  });
}

// ---------------------------------------------------------------------------------------
// Built-in grounding (route 2): a canned Google Search answer for the end-to-end chat check.

/** Three sentences; the second after multi-byte characters; the third no support covers. */
export const GROUNDED_DEMO = {
  question: 'When did Café Müller in Düsseldorf open?',
  text: 'Café Müller in Düsseldorf opened in 1926. Its terrace seats forty guests. It also runs a ferry to the moon every Sunday.',
  kept: ['Café Müller in Düsseldorf opened in 1926.', 'Its terrace seats forty guests.'],
  dropped: 'It also runs a ferry to the moon every Sunday.',
  sources: [
    { uri: 'https://history.example.org/cafe-mueller', title: 'Café Müller: a history' },
    { uri: 'https://www.visit-dus.example.com/terrace', title: 'Terraces of Düsseldorf' },
  ],
  query: 'Café Müller Düsseldorf opening year',
};

/**
 * Search Suggestions markup in the shape Google sends (a styled container, a logo, chips linking
 * to Google Search: our own CSS and shapes), plus hostile extras that must never run or render.
 */
export const GROUNDED_DEMO_SUGGESTIONS = [
  '<style>',
  '.container { display: flex; align-items: center; gap: 8px; padding: 8px 12px; border-radius: 8px; font-family: sans-serif; font-size: 14px; }',
  '.chip { display: inline-block; border: solid 1px; border-radius: 16px; padding: 5px 16px; text-decoration: none; }',
  '@media (prefers-color-scheme: light) { .container { background: #fafafa; } .chip { background: #fff; border-color: #d2d2d2; color: #5e5e5e; } }',
  '@media (prefers-color-scheme: dark) { .container { background: #1f1f1f; } .chip { background: #2c2c2c; border-color: #3c4043; color: #fff; } }',
  '</style>',
  '<div class="container"><svg class="logo" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true"><circle cx="9" cy="9" r="8" fill="#4285F4"/></svg>',
  `<div class="carousel"><a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(GROUNDED_DEMO.query)}">${GROUNDED_DEMO.query}</a></div></div>`,
  '<script>alert("suggestions script ran")</script><img src="x" onerror="alert(\'suggestions img ran\')"><svg onload="alert(\'suggestions svg ran\')"></svg>',
].join('');

/** True when the request asks for Google Search grounding (the `googleSearch` tool). */
export function isGoogleSearchRequest(body: Record<string, unknown>): boolean {
  return (
    Array.isArray(body.tools) && body.tools.some((t) => typeof t === 'object' && t !== null && 'googleSearch' in t)
  );
}

/** The canned grounded answer: E1 backs the first sentence, E2 the second, nothing the third. */
export function groundedDemoReply(): ScriptedReply {
  return groundedReply(
    GROUNDED_DEMO.text,
    GROUNDED_DEMO.sources,
    [
      { text: GROUNDED_DEMO.kept[0], chunks: [0] },
      { text: GROUNDED_DEMO.kept[1], chunks: [1] },
    ],
    { searchSuggestions: GROUNDED_DEMO_SUGGESTIONS, queries: [GROUNDED_DEMO.query] },
  );
}
