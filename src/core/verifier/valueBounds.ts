// A bound on a value the passage contradicts: the sentence's "more than 5 accounts" where the
// passage's 5 accounts are "or fewer" (the bounds are read by anchors.ts `boundAt`).

import { boundAt, type Bound } from './anchors';
import type { SupportUnit } from './supportWindow';
import type { ValueMention } from './values';

/** What the check needs of a sentence: its values, the bound each is under, its text. */
export interface BoundedClaim {
  values: readonly ValueMention[];
  bounds: readonly (Bound | undefined)[];
  text: string;
}

/** A bound the passage contradicts: "more than 5 accounts" where it says "5 accounts or fewer". */
export function boundConflict(
  claim: BoundedClaim,
  found: { v: ValueMention; unit: SupportUnit }[],
  passage: string,
): string | undefined {
  for (let k = 0; k < claim.values.length; k++) {
    const bound = claim.bounds[k];
    if (!bound) continue;
    const same = found.filter((f) => f.v.key === claim.values[k].key);
    if (same.length === 0) continue;
    const bounds = same.map((f) => boundAt(passage.slice(f.unit.start, f.unit.end), f.v.start ?? 0, f.v.end ?? 0));
    if (bounds.includes(bound) || bounds.includes(undefined)) continue;
    const other = same[0];
    const around = passage.slice(other.unit.start, other.unit.end);
    const from = Math.max(0, (other.v.start ?? 0) - 20);
    return `'${claim.text.slice(Math.max(0, (claim.values[k].start ?? 0) - 14), claim.values[k].end).trim()}' — the passage says '${around.slice(from, other.v.end).trim()}'`;
  }
  return undefined;
}
