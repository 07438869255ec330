// A model applies the passage's bound to the asker's own case: "minors under 16, which would cover a
// 15-year-old", "120 days or less, and two months falls well within that". The asker's value is not a
// fact of the documents, so the passage need not give it; what the sentence claims of it is that it
// lies inside the bound, and that is checked here, by arithmetic. A value on the wrong side ("under 16,
// which would cover a 17-year-old") stays a value the passage does not give.

import { boundAt } from './anchors';
import type { ValueMention } from './values';

// Units of time in days, so that "two months" can be set against "120 days".
const DAYS: Readonly<Record<string, number>> = { dai: 1, day: 1, week: 7, month: 30, year: 365 };

/** The amount in the bound's unit, or undefined when the two cannot be compared. */
function inUnitOf(value: ValueMention, bound: ValueMention): number | undefined {
  const n = Number(value.key);
  if (!Number.isFinite(n)) return undefined;
  if (value.unit === bound.unit || bound.unit === '') return n;
  const from = DAYS[value.unit];
  const to = DAYS[bound.unit];
  return from && to ? (n * from) / to : undefined;
}

/**
 * The sentence's values less those that are the asker's case inside a bound the sentence states (the
 * bound's value itself given by the window): a plain value (no bound of its own) that the window does
 * not give, compared with a bounded value of the sentence that the window gives.
 */
export function withoutAppliedCases(
  sentence: string,
  values: readonly ValueMention[],
  inWindow: readonly ValueMention[],
): ValueMention[] {
  if (values.length < 2) return [...values];
  const given = (v: ValueMention): boolean => inWindow.some((p) => p.key === v.key);
  const bounds = values.flatMap((b) => {
    if (b.start === undefined || b.end === undefined || !given(b)) return [];
    const side = boundAt(sentence, b.start, b.end);
    return side ? [{ b, side }] : [];
  });
  if (bounds.length === 0) return [...values];
  return values.filter((v) => {
    if (given(v) || v.start === undefined || v.end === undefined || boundAt(sentence, v.start, v.end)) return true;
    return !bounds.some(({ b, side }) => {
      const n = inUnitOf(v, b);
      const limit = Number(b.key);
      return n !== undefined && (side === 'upper' ? n <= limit : n >= limit);
    });
  });
}
