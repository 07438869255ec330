// How many passages one search returns (the setting evident.retrieval.topK, the CLI's --top-k):
// a whole number from MIN_TOP_K to MAX_TOP_K. A workspace may set it, so its value is checked
// where settings are read (a fraction once broke the shared store's LIMIT, a tiny value emptied
// every answer), and the engine bounds whatever it is given.

export const DEFAULT_TOP_K = 6;
export const MIN_TOP_K = 1;
export const MAX_TOP_K = 50;

/** A value within bounds: rounded to a whole number and clamped; the default when it is not a finite number. */
export function boundTopK(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_TOP_K;
  return Math.min(MAX_TOP_K, Math.max(MIN_TOP_K, Math.round(value)));
}

/**
 * A setting's value as used: undefined (the default) when unset; else bounded, with a note for
 * the log when the value was not used as written.
 */
export function topKSetting(value: unknown): { topK: number | undefined; note?: string } {
  if (value === undefined || value === null) return { topK: undefined };
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return {
      topK: undefined,
      note: `evident.retrieval.topK is not a number (${String(value).slice(0, 40)}): the default of ${DEFAULT_TOP_K} is used.`,
    };
  }
  const topK = boundTopK(value);
  if (topK === value) return { topK };
  return {
    topK,
    note: `evident.retrieval.topK is ${value}; it must be a whole number from ${MIN_TOP_K} to ${MAX_TOP_K}: ${topK} is used.`,
  };
}
