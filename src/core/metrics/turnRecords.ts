// Reading the metrics log back: each line becomes a TurnPoint, old lines included. Lines written
// before the log gained `factual` and an area topic are read as they are: `factual` is inferred
// from coverage and dropped (coverage = kept / (kept + dropped)), and an old topic (a document
// path) becomes that document's area. A line that is not a metrics record (torn, hand-edited) is
// counted and skipped, never fatal: the rest of the history stays readable.

import { areaOf } from './topic';

export interface TurnPoint {
  /** Milliseconds since the epoch. */
  time: number;
  model: string;
  indexVersion: string;
  topic: string;
  retrieved: number;
  coverage: number;
  dropped: number;
  factual: number;
  abstained: boolean;
}

export interface ParsedLog {
  turns: TurnPoint[];
  /** Lines that were not metrics records. */
  skipped: number;
}

export const NO_TOPIC = '(none)';

export function parseMetricsLog(text: string): ParsedLog {
  const turns: TurnPoint[] = [];
  let skipped = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const point = toTurnPoint(safeParse(line));
    if (point) turns.push(point);
    else skipped++;
  }
  // Writers from two processes may interleave by a few milliseconds: keep time order.
  turns.sort((a, b) => a.time - b.time);
  return { turns, skipped };
}

function safeParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function toTurnPoint(value: unknown): TurnPoint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const time = typeof r.time === 'string' ? Date.parse(r.time) : NaN;
  if (Number.isNaN(time) || !isCount(r.retrieved) || !isCount(r.dropped) || typeof r.abstained !== 'boolean') {
    return undefined;
  }
  if (typeof r.coverage !== 'number' || r.coverage < 0 || r.coverage > 1) return undefined;
  const dropped = r.dropped;
  const factual = isCount(r.factual) ? Math.max(r.factual, dropped) : inferFactual(r.coverage, dropped, r.abstained);
  return {
    time,
    model: typeof r.model === 'string' && r.model ? r.model : 'unknown',
    indexVersion: typeof r.indexVersion === 'string' && r.indexVersion ? r.indexVersion : 'unknown',
    topic: topicOfRecord(r),
    retrieved: r.retrieved,
    coverage: r.coverage,
    dropped,
    factual,
    abstained: r.abstained,
  };
}

/** Old lines: kept = coverage × factual and dropped = (1 − coverage) × factual. */
function inferFactual(coverage: number, dropped: number, abstained: boolean): number {
  if (dropped > 0 && coverage < 1) return Math.round(dropped / (1 - coverage));
  if (dropped > 0) return dropped;
  // No drops: at least one kept sentence unless the turn abstained.
  return abstained ? 0 : 1;
}

function topicOfRecord(r: Record<string, unknown>): string {
  if (typeof r.topic !== 'string' || !r.topic) return NO_TOPIC;
  // Old lines named the document (a path); new ones name the area already.
  const isOldDocumentTopic = !('factual' in r) && /\.(md|markdown|mdx)$/i.test(r.topic);
  return isOldDocumentTopic ? areaOf(r.topic) : r.topic;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
