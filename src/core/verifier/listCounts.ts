// A passage's list counts its items: "Subteams:" followed by three list items says there are three
// subteams, as "three subteams" would. A model summing up a list ("SIRT has three subteams") states
// a value the passage gives only by its shape; this reads that value.

import { stem } from '../text/terms';
import type { ValueMention } from './values';

// A line that introduces a list: words ending with ":" (the last word names what is listed).
const LEAD = /([\p{L}][\p{L}'’-]*)\s*:\s*$/u;
// A list item: "- …", "* …", "• …", "1. …", "1) …".
const ITEM = /^\s*(?:[-*•]|\d{1,2}[.)])\s+\S/u;

/**
 * Each list of the passage as a count of the noun its lead-in ends with: key the number of items,
 * unit that noun's stem ("Subteams:" and three items: 3 "subteam"). Empty for a passage without
 * a list (one scan for a line break followed by a list marker first).
 */
export function listCounts(passage: string): ValueMention[] {
  if (!/\n\s*(?:[-*•]|\d{1,2}[.)])\s/u.test(passage)) return [];
  const lines = passage.split('\n');
  const counts: ValueMention[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const lead = LEAD.exec(lines[i]);
    if (!lead) continue;
    let n = 0;
    while (i + 1 + n < lines.length && ITEM.test(lines[i + 1 + n])) n++;
    if (n >= 2) counts.push({ key: String(n), unit: stem(lead[1].toLowerCase()), text: `${n} ${lead[1]}` });
  }
  return counts;
}
