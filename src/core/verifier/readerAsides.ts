// Words the answer addresses to the reader about the claim that follows them: "Keep in mind that
// …", "Bear in mind …", "Note that …", "Be aware that …", "Remember that …", also after a leading
// clause ("If you do give the money back, keep in mind that amounts refunded … are deducted").
// They frame the claim and state nothing of the documents, so the claim is read without them: their
// words ("keep", "mind") would otherwise count as words the passage lacks.

// Adverbs that may come before the aside ("Also keep in mind", "Just note that").
const LEADING = String.raw`(?:(?:also|just|please|and|but|so)\s*,?\s+)*`;
// The aside itself: "keep / bear in mind" may go without "that"; the others need it ("Note the
// deadline" is an instruction, "Remember to file" is one too).
const ASIDE = String.raw`(?:(?:keep|bear)\s+in\s+mind(?:\s*,?\s+that\b)?|(?:note|remember|be\s+aware|be\s+advised)\s+that\b)\s*,?\s*`;

// At the start of the claim, or right after the comma closing a leading clause.
const OPENING = new RegExp(String.raw`^\s*${LEADING}${ASIDE}`, 'iu');
const AFTER_CLAUSE = new RegExp(String.raw`([,;—–]\s*)${LEADING}${ASIDE}`, 'iu');

/** The claim without an aside addressed to the reader; the claim as written when it has none or is only one. */
export function withoutReaderAside(claim: string): string {
  const opening = OPENING.exec(claim);
  const read = opening
    ? claim.slice(opening[0].length)
    : claim.replace(AFTER_CLAUSE, (_all: string, before: string) => before);
  return /[\p{L}\p{N}]/u.test(read) ? read : claim;
}
