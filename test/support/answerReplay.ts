// Replaying a written answer as a model would give it (tests and benchmarks only): the scripted
// model first calls searchPolicies with the question, then answers with the written text, its
// evidence ids (relative to the evidence list captured when the answer was written) mapped to
// the ids THIS turn's searches returned, by passage (source and line range). A cited passage the
// first search did not return is searched for again (its heading and first words), as a model
// searches twice; one still not found is reported, and its citation becomes an id no turn has.
// The same logic drives the fake Gemini server (real @google/genai client) and the fake VS Code
// language model.

import { functionCallReply, textReply, type RecordedRequest, type ScriptedReply } from './fakeGemini';

/** A passage of the captured evidence list, as `evident ask --json` gave it. */
export interface CapturedPassage {
  id: string;
  source: string;
  startLine: number;
  endLine: number;
  heading: string;
  text: string;
}

/** A passage as the searchPolicies tool returned it in this turn. */
export interface ReturnedPassage {
  id: string;
  source: string;
  lines: string;
  /** The passage's text, when the tool gave it: two passages of one long paragraph share a line range. */
  text?: string;
}

export interface ReplayPlan {
  question: string;
  /** The written answer, with ids of `captured`. */
  answer: string;
  captured: readonly CapturedPassage[];
}

/** What the replay did: which captured passages it could not find again. */
export interface ReplayReport {
  searches: string[];
  missing: string[];
}

/** An id that no turn produces: a citation of a passage the replay could not retrieve again. */
export const UNRETRIEVED_ID = 'E999';
const MAX_SEARCH_ROUNDS = 3;
const CITATION = /\[(E[1-9]\d*(?:\s*,\s*E[1-9]\d*)*)\]/g;

/** The captured ids the answer cites, each once, in order. */
export function citedCapturedIds(answer: string): string[] {
  const ids: string[] = [];
  for (const m of answer.matchAll(CITATION)) {
    for (const id of m[1].split(/\s*,\s*/)) if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The answer with each captured id replaced by this turn's id for the same passage. */
export function mapCitations(answer: string, idFor: (capturedId: string) => string | undefined): string {
  return answer.replace(
    CITATION,
    (_, list: string) =>
      `[${list
        .split(/\s*,\s*/)
        .map((id) => idFor(id) ?? UNRETRIEVED_ID)
        .join(', ')}]`,
  );
}

/**
 * The next move of the replayed model: a search, or the answer. `returned` is every passage the
 * tool gave in this turn so far; `rounds` the searches made.
 */
export function nextMove(
  plan: ReplayPlan,
  returned: readonly ReturnedPassage[],
  rounds: number,
  report: ReplayReport,
): { search: string[] } | { answer: string } {
  if (rounds === 0) {
    report.searches.push(plan.question);
    return { search: [plan.question] };
  }
  const capturedById = new Map(plan.captured.map((c) => [c.id, c] as const));
  // By source and line range; of several passages there (a long paragraph cut in two), the one with the captured text.
  const idFor = (id: string): string | undefined => {
    const c = capturedById.get(id);
    if (!c) return undefined;
    const there = returned.filter((p) => p.source === c.source && p.lines === `${c.startLine}-${c.endLine}`);
    return (there.find((p) => p.text === c.text) ?? there[0])?.id;
  };
  const missing = citedCapturedIds(plan.answer).filter((id) => idFor(id) === undefined && capturedById.has(id));
  if (missing.length > 0 && rounds < MAX_SEARCH_ROUNDS) {
    const queries = missing.map((id) => {
      const c = capturedById.get(id) as CapturedPassage;
      return `${c.heading.split(' > ').slice(-1)[0]} ${c.text.split(/\s+/).slice(0, 14).join(' ')}`.slice(0, 300);
    });
    report.searches.push(...queries);
    return { search: queries };
  }
  report.missing = missing.map((id) => {
    const c = capturedById.get(id) as CapturedPassage;
    return `${id} ${c.source}:${c.startLine}-${c.endLine}`;
  });
  return { answer: mapCitations(plan.answer, idFor) };
}

/** Passages in a searchPolicies tool response (`{passages: [{id, source, lines}]}`). */
export function returnedPassages(response: unknown): ReturnedPassage[] {
  const list = (response as { passages?: unknown } | undefined)?.passages;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (p): p is ReturnedPassage => typeof p === 'object' && p !== null && typeof (p as ReturnedPassage).id === 'string',
  );
}

/** Every function response in a Gemini request, all rounds. */
function functionResponses(body: Record<string, unknown>): unknown[] {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const out: unknown[] = [];
  for (const content of contents as Array<{ parts?: Array<{ functionResponse?: { response?: unknown } }> }>) {
    for (const part of content.parts ?? []) if (part.functionResponse) out.push(part.functionResponse.response);
  }
  return out;
}

function searchRounds(body: Record<string, unknown>): number {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  return (contents as Array<{ role?: string; parts?: Array<{ functionCall?: unknown }> }>).filter((c) =>
    c.parts?.some((p) => p.functionCall),
  ).length;
}

/** The fake Gemini server's script for one replayed answer. */
export function geminiReplayScript(plan: ReplayPlan, report: ReplayReport): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const returned = functionResponses(req.body).flatMap(returnedPassages);
    const move = nextMove(plan, returned, searchRounds(req.body), report);
    if ('answer' in move) return textReply(move.answer);
    if (move.search.length === 1) return functionCallReply('searchPolicies', { query: move.search[0] });
    return {
      body: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: move.search.map((query) => ({ functionCall: { name: 'searchPolicies', args: { query } } })),
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 8, totalTokenCount: 18 },
      },
    };
  };
}
