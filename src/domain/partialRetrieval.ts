// Retrieval while an index's vectors are still being computed: every passage is found by its
// words at once, and by meaning only once it has a vector. How much of the index has vectors is
// said with each answer (CLI JSON, chat) and in the status bar; the wording and the figure are
// defined here once.

/** How many of the index's passages have a vector so far. */
export interface VectorFill {
  passagesWithVectors: number;
  passages: number;
}

/** A turn that searched while vectors were filling in: the figure it searched with. */
export interface PartialRetrieval extends VectorFill {
  /** 0..99: floored, so an index one vector short never reads "100%". */
  percent: number;
}

/** The share of passages with a vector, floored (never 100 while one is missing). */
export function vectorPercent(fill: VectorFill): number {
  if (fill.passages <= 0) return 100;
  const percent = Math.floor((Math.min(fill.passagesWithVectors, fill.passages) / fill.passages) * 100);
  return fill.passagesWithVectors < fill.passages ? Math.min(percent, 99) : 100;
}

/** The partial-retrieval record of a turn, or undefined when every passage has its vector. */
export function partialRetrieval(fill: VectorFill): PartialRetrieval | undefined {
  if (fill.passages <= 0 || fill.passagesWithVectors >= fill.passages) return undefined;
  return { passagesWithVectors: fill.passagesWithVectors, passages: fill.passages, percent: vectorPercent(fill) };
}

const count = new Intl.NumberFormat('en-US');

/** One sentence for an answer: "Retrieval is partial: vectors for 37% of passages (…)". */
export function describePartialRetrieval(p: PartialRetrieval): string {
  return (
    `Retrieval is partial: vectors for ${p.percent}% of passages (${count.format(p.passagesWithVectors)} of ${count.format(p.passages)}) so far; ` +
    'every passage is found by its words, and by meaning once its vector is computed.'
  );
}

/** While vectors fill in (status bar tooltip, chat header): what answers use meanwhile. */
export function describeVectorFill(fill: VectorFill): string {
  return (
    `answers use every passage's words, and their meaning for the ${vectorPercent(fill)}% of passages ` +
    `(${count.format(fill.passagesWithVectors)} of ${count.format(fill.passages)}) whose vectors are computed so far.`
  );
}

/** The short form for the status bar: "vectors 37%". */
export function shortVectorFill(fill: VectorFill): string {
  return `vectors ${vectorPercent(fill)}%`;
}
