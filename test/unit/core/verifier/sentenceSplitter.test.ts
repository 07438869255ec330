// The Markdown-aware sentence splitter: blocks, abbreviations, numbers and citation placement.

import * as assert from 'node:assert/strict';
import { splitSentences } from '../../../../src/core/verifier';

const texts = (markdown: string): string[] => splitSentences(markdown).map((s) => s.text);

describe('splitSentences', () => {
  it('splits plain sentences and keeps a citation before the period with its sentence', () => {
    assert.deepEqual(texts('Employees get 30 days of leave [E2]. Contractors get none [E3].'), [
      'Employees get 30 days of leave [E2].',
      'Contractors get none [E3].',
    ]);
  });

  it('attaches a citation written after the period to the sentence before it', () => {
    assert.deepEqual(texts('Employees get 30 days. [E2] Contractors get none. [E3]'), [
      'Employees get 30 days. [E2]',
      'Contractors get none. [E3]',
    ]);
    assert.deepEqual(texts('Leave is 90 days. [E2][E3] Next one [E1].'), [
      'Leave is 90 days. [E2][E3]',
      'Next one [E1].',
    ]);
  });

  it('does not split at abbreviations such as "e.g.", "i.e.", "U.S." and "Dr."', () => {
    assert.deepEqual(texts('Use a VPN, e.g. WireGuard, when remote [E1]. That is, i.e. always [E2].'), [
      'Use a VPN, e.g. WireGuard, when remote [E1].',
      'That is, i.e. always [E2].',
    ]);
    assert.deepEqual(texts('The U.S. office closes at 5 pm [E2]. Dr. Smith approves it [E3].'), [
      'The U.S. office closes at 5 pm [E2].',
      'Dr. Smith approves it [E3].',
    ]);
  });

  it('ends a sentence after an abbreviation when a citation closes it', () => {
    assert.deepEqual(texts('Staff are based in the U.S. [E1] Others work remotely [E2].'), [
      'Staff are based in the U.S. [E1]',
      'Others work remotely [E2].',
    ]);
  });

  it('does not split decimals or versions', () => {
    assert.deepEqual(texts('The rate is 2.5 percent [E1]. Version 1.2.3 is required [E2].'), [
      'The rate is 2.5 percent [E1].',
      'Version 1.2.3 is required [E2].',
    ]);
  });

  it('treats every list item, heading and table row as its own block', () => {
    const md =
      '# Leave\n\nYou get:\n\n- 30 days of leave [E1]\n- 5 sick days [E2]. Also more [E3].\n1. First item\n   continues here [E4].\n\n| a | b |\n|---|---|';
    assert.deepEqual(texts(md), [
      'Leave',
      'You get:',
      '30 days of leave [E1]',
      '5 sick days [E2].',
      'Also more [E3].',
      'First item\n   continues here [E4].',
      '| a | b |',
    ]);
  });

  it('joins the wrapped lines of one paragraph and splits on ! and ?', () => {
    assert.deepEqual(texts('Line one of a paragraph\nline two [E1]! Is that so? Yes.'), [
      'Line one of a paragraph\nline two [E1]!',
      'Is that so?',
      'Yes.',
    ]);
  });

  it('returns offsets into the original text, and covers every letter outside markers', () => {
    const md = '## Travel\n\n> Book economy [E1]. Hotels need approval [E2].\n\n* **Meals:** $50 a day [E3].';
    const spans = splitSentences(md);
    for (const s of spans) assert.equal(md.slice(s.start, s.end), s.text);
    let rest = md;
    for (const s of [...spans].reverse()) rest = rest.slice(0, s.start) + rest.slice(s.end);
    assert.doesNotMatch(rest, /[A-Za-z0-9]/, `text outside sentences: ${JSON.stringify(rest)}`);
  });

  it('returns nothing for blank text', () => {
    assert.deepEqual(splitSentences('  \n\n '), []);
  });
});
