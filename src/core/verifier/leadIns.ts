// A list's lead-in says what its items are. Under "Extensions are prohibited from:" or "You must not:"
// every item is forbidden, though no item says "not": "You can't collect Personal Data without consent"
// is what the item "- Collecting … Personal Data without obtaining proper User consent" says there.

// A list item's marker at the start of its line: "- ", "* ", "+ ", "1. ", "2) ".
const ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)])\s+/u;
// A negation or a forbidding word in the lead-in ("must not", "are prohibited from", "never").
const NEGATING = /(?:\b(?:not|never|no|cannot|prohibited|forbidden|banned|barred|disallowed)\b|n['’]t\b)/iu;

/**
 * Whether the list item holding `at` in `text` stands under a lead-in (the line before its list, ending
 * with ":") that negates or forbids. False for text that is not a list item.
 */
export function underNegatingLead(text: string, at: number): boolean {
  while (at < text.length && /\s/u.test(text[at])) at++;
  let lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (!ITEM.test(text.slice(lineStart, lineStart + 8))) return false;
  // Back over the list's earlier items to the line that opens it.
  for (let guard = 0; guard < 50 && lineStart > 0; guard++) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const line = text.slice(prevStart, lineStart - 1);
    if (!ITEM.test(line)) return /:\s*$/u.test(line) && NEGATING.test(line.slice(line.search(/[^.!?]*$/u)));
    lineStart = prevStart;
  }
  return false;
}
