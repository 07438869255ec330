// The one figure a running index shows, the same in the chat view and the status bar: before the
// lexical part is committed, the share of the run done; once questions are answered (vectors
// filling in), the share of passages that have a vector (the figure each answer's "retrieval is
// partial" note gives too). Pure.

import { vectorPercent, type VectorFill } from './partialRetrieval';

export function indexingPercent(view: { percent?: number; vectors?: VectorFill }): number {
  return view.vectors ? vectorPercent(view.vectors) : Math.round(view.percent ?? 0);
}
