// Names are read by hand-written scans that give exactly what their defining patterns give: the
// names of a sentence and the initials of a passage's capitalised runs equal those read with the
// token pattern and a pattern test per token, and stopped acronyms are looked for only in a text
// that can hold one. A possessive names what its word names ("the AO's approval" names the AO).

import * as assert from 'node:assert/strict';
import {
  addStoppedAcronyms,
  addWordForms,
  extractNames,
  runAcronyms,
  type NameMention,
} from '../../../../src/core/verifier/names';
import { matchesOf } from '../../../../src/core/text/matches';
import { verifyAnswer } from '../../../../src/core/verifier';
import { ledgerOf } from '../../../support/ledger';
import { STOPWORDS, stem, TOKEN, tokenWord } from '../../../../src/core/text/terms';

// The definitions, as names.ts read them before its scans: every token by the pattern, every test a pattern.
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);
const NOT_NAMES = new Set(
  (
    'i ok okay january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday'
  ).split(' '),
);
const NAME_LINKS = new Set(['of', 'and', 'the', 'de', 'du', 'des', 'la', 'le', 'von', 'van', 'der', 'for']);
const fold = (w: string): string => (/[^\u0000-\u007f]/.test(w) ? w.normalize('NFD').replace(/\p{M}/gu, '') : w);

function referenceRuns(text: string): { words: string[]; initials: string }[] {
  const runs: { words: string[]; initials: string }[] = [];
  let words: string[] = [];
  let pendingLinks = 0;
  let lastEnd = -1;
  const flush = (): void => {
    if (words.length >= 2) runs.push({ words, initials: words.map((w) => fold(w[0].toLowerCase())).join('') });
    words = [];
    pendingLinks = 0;
  };
  for (const m of matchesOf(WORDS, text)) {
    const token = m[0];
    const oneSpace = m.index - lastEnd === 1 && text.charCodeAt(lastEnd) === 32;
    if (lastEnd >= 0 && !oneSpace && !/^\s+$/.test(text.slice(lastEnd, m.index))) flush();
    lastEnd = m.index + token.length;
    if (/^\p{Lu}/u.test(token) && !/\d/.test(token)) {
      words.push(token);
      pendingLinks = 0;
    } else if (words.length && NAME_LINKS.has(token.toLowerCase()) && pendingLinks < 2) {
      pendingLinks++;
    } else {
      flush();
    }
  }
  flush();
  return runs;
}

function referenceNames(sentence: string): NameMention[] {
  const names = new Map<string, NameMention>();
  let first = true;
  for (const m of matchesOf(WORDS, sentence)) {
    const token = m[0].replace(/['’]s$|(?<=s)['’]$/u, ''); // a possessive names what its word names
    const isFirst = first;
    first = false;
    const lower = tokenWord(token.toLowerCase());
    if (lower.length < 2 || STOPWORDS.has(lower) || NOT_NAMES.has(lower) || NOT_NAMES.has(lower.replace(/s$/, ''))) {
      continue;
    }
    const mixed = /\p{L}/u.test(token) && /\d/.test(token);
    const capitalised = /^\p{Lu}/u.test(token);
    const inner = /^\p{Ll}+\p{Lu}/u.test(token);
    const opens = /[:"“‘(]\s?$/u.test(sentence.slice(Math.max(0, m.index - 2), m.index));
    if (!(
      mixed ||
      inner ||
      (capitalised && !isFirst && !opens) ||
      (capitalised && /^\p{Lu}[\p{Lu}\d]+$/u.test(token))
    )) {
      continue;
    }
    const s = stem(fold(lower));
    if (!names.has(s)) names.set(s, { text: token, stem: s });
  }
  for (const run of referenceRuns(sentence)) {
    const mentions = run.words.map((word) => names.get(stem(fold(tokenWord(word.toLowerCase())))));
    for (let i = 0; i < run.words.length; i++) {
      for (let j = i + 2; j <= run.words.length; j++) {
        for (let k = i; k < j; k++) {
          const n = mentions[k];
          if (n) (n.runs ??= []).push(run.initials.slice(i, j));
        }
      }
    }
  }
  return [...names.values()];
}

let seed = 17;
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const PIECES = [
  'the',
  'of',
  'and',
  'The',
  'Of',
  'United',
  'States',
  'Navy',
  'NFL',
  'iPhone',
  'eBay',
  'W-2',
  '18F',
  'x2',
  'Hernández',
  'É',
  'é',
  'Über',
  'ΣΟΦΙΑ',
  "GitHub's",
  'it’s',
  'Fridays',
  'May',
  'may',
  'U.S.',
  'A.V.',
  '𝐀.',
  '.',
  ',',
  ':',
  '"',
  '“',
  '(',
  ' ',
  ' ',
  ' ',
  '  ',
  '\n',
  '\u00a0',
  '1,500',
  'de',
  'Bank',
];
const texts = [
  'The U.S. Navy and the National Football League (NFL) met Hernández at the Bank of England.',
  'GitHub’s policy: "Use or Lose" applies to 18F, W-2 forms and iPhone users; eBay too.',
  'ÀBC DÉF ÉtéMain naïveTeam ΣΟΦΙΑ’s Ⅻ U.S.A. ÆON x² 𝐀.𝐁. K.L.M.',
  '',
  '.',
  ...Array.from({ length: 3000 }, () =>
    Array.from({ length: random(14) }, () => PIECES[random(PIECES.length)]).join(random(4) ? ' ' : ''),
  ),
];

describe('names, read by scans', () => {
  it("finds a sentence's names (and the runs they belong to) exactly as the patterns define them", () => {
    for (const text of texts) assert.deepEqual(extractNames(text), referenceNames(text), JSON.stringify(text));
  });

  it("gives the initials of a passage's capitalised runs exactly as the patterns define them", () => {
    for (const text of texts) {
      const expected = new Set<string>();
      for (const r of referenceRuns(text)) {
        expected.add(r.initials);
        if (/^(?:the|a|an)$/i.test(r.words[0]) && r.words.length > 2) expected.add(r.initials.slice(1));
      }
      assert.deepEqual([...runAcronyms(text)], [...expected], JSON.stringify(text));
    }
  });

  it("gives a word's forms and its camel-case parts' exactly as the split pattern defines them", () => {
    const words = [
      'MemorialBettws',
      'ÉtéMain',
      'naïveTeam',
      "Stewart's",
      'iPhone',
      'eBay',
      'NASA’s',
      'ABCdef',
      'aBC',
      'AbC',
    ];
    for (const text of texts) for (const m of matchesOf(WORDS, text)) words.push(m[0]);
    for (const word of words) {
      const stems = new Set<string>();
      const written = new Set<string>();
      addWordForms(word, stems, written);
      const expected = { stems: new Set<string>(), written: new Set<string>() };
      for (const form of new Set([word, ...word.split(/(?<=\p{Ll})(?=\p{Lu})/u)])) {
        if (/^\p{Lu}{3,}$/u.test(form)) expected.written.add(fold(form.toLowerCase()));
        expected.stems.add(stem(fold(tokenWord(form.toLowerCase()))));
      }
      assert.deepEqual([...stems].sort(), [...expected.stems].sort(), word);
      assert.deepEqual([...written].sort(), [...expected.written].sort(), word);
    }
    // The words reach the parts: a camel-case word gives its second part's stem.
    const parts = new Set<string>();
    addWordForms('MemorialBettws', parts, new Set());
    assert.ok(parts.has('bettw'));
  });

  it('finds the same stopped acronyms whether or not the text is scanned for them', () => {
    for (const text of [...texts, 'a.b.', 'x.𝐀.', 'U. S.', 'e.g.', '..a.', 'A.B', '𝐀.𝐁.']) {
      const stems = new Set<string>();
      const written = new Set<string>();
      addStoppedAcronyms(text, stems, written);
      const expected = new Set<string>();
      for (const m of matchesOf(/\b(?:\p{L}\.){2,}/gu, text)) expected.add(fold(m[0].replace(/\./g, '').toLowerCase()));
      assert.deepEqual([...written].sort(), [...expected].sort(), JSON.stringify(text));
    }
  });
});

describe('names: possessives', () => {
  it('reads "the AO\'s approval" as naming the AO, and still drops a name the passage lacks', async () => {
    assert.deepEqual(
      extractNames("Send the AO's approval to the Agencies' desk").map((n) => n.text),
      ['AO', 'Agencies'],
    );
    const ledger = ledgerOf({ E1: 'Travel approval\nThe AO sends a written approval to the travel desk by 3:30 PM.' });
    const kept = await verifyAnswer("The AO's written approval goes to the travel desk by 3:30 PM [E1].", ledger);
    assert.equal(kept.sentences[0].verdict, 'kept', kept.sentences[0].reason);
    const other = await verifyAnswer("The COR's written approval goes to the travel desk by 3:30 PM [E1].", ledger);
    assert.equal(other.sentences[0].verdict, 'dropped');
    assert.match(other.sentences[0].reason, /never names 'COR'/);
  });
});
