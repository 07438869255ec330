// WiCE oracle chunks as claims for the verifier's evaluation, and the protocol of
// ../shared/data/README.md: a claim is positive only when `supported`, its score is the
// maximum over its chunks, and the figure is balanced accuracy over claims.

import { readJsonl, requireString, requireStringArray } from '../../src/core/jsonl';
import { evidenceText } from '../../src/core/verifier';

export interface WiceClaim {
  id: string;
  claim: string;
  supported: boolean;
  /** One evidence text per oracle chunk (its sentences joined with spaces, as `evident verify` does). */
  chunks: string[];
}

interface WiceRow {
  label: string;
  claim: string;
  evidence: string[];
  meta: { id: string };
}

const LABELS = new Set(['supported', 'partially_supported', 'not_supported']);

export async function loadWice(file: string): Promise<WiceClaim[]> {
  const rows = await readJsonl<WiceRow>(file, (v) => {
    if (!LABELS.has(v.label as string)) return `"label" must be one of ${[...LABELS].join(', ')}`;
    const meta = v.meta as Record<string, unknown> | undefined;
    if (typeof meta?.id !== 'string') return '"meta.id" must be a string';
    return requireString(v, 'claim') ?? requireStringArray(v, 'evidence');
  });
  const claims = new Map<string, WiceClaim>();
  for (const row of rows) {
    let c = claims.get(row.meta.id);
    if (!c) {
      c = { id: row.meta.id, claim: row.claim, supported: row.label === 'supported', chunks: [] };
      claims.set(row.meta.id, c);
    }
    c.chunks.push(evidenceText(row.evidence));
  }
  return [...claims.values()];
}

export interface Confusion {
  tp: number; // supported, predicted supported
  fn: number;
  tn: number; // unsupported, predicted unsupported
  fp: number;
}

export function confusion(gold: boolean[], predicted: boolean[]): Confusion {
  const c = { tp: 0, fn: 0, tn: 0, fp: 0 };
  gold.forEach((g, i) => {
    if (g) predicted[i] ? c.tp++ : c.fn++;
    else predicted[i] ? c.fp++ : c.tn++;
  });
  return c;
}

/** (TPR + TNR) / 2. */
export function balancedAccuracy(c: Confusion): number {
  const tpr = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  const tnr = c.tn + c.fp ? c.tn / (c.tn + c.fp) : 0;
  return (tpr + tnr) / 2;
}

/** Precision and recall of the "unsupported" class (what the verifier drops). */
export function unsupportedPrecisionRecall(c: Confusion): { precision: number; recall: number } {
  return { precision: c.tn + c.fn ? c.tn / (c.tn + c.fn) : 0, recall: c.tn + c.fp ? c.tn / (c.tn + c.fp) : 0 };
}

/** The threshold with the best balanced accuracy on these scores (ties: the lowest). */
export function bestThreshold(
  gold: boolean[],
  scores: number[],
  candidates: number[],
): { threshold: number; balancedAccuracy: number } {
  let best = { threshold: candidates[0], balancedAccuracy: -1 };
  for (const t of candidates) {
    const ba = balancedAccuracy(
      confusion(
        gold,
        scores.map((s) => s >= t),
      ),
    );
    if (ba > best.balancedAccuracy) best = { threshold: t, balancedAccuracy: ba };
  }
  return best;
}
