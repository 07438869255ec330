// Which notices show under an answer is decided by their code: why retrieval is lexical only is
// said in the chat header, every other notice (a damaged lexical index above all) reaches the
// chat once. The words of a notice decide nothing.

import { strict as assert } from 'node:assert';
import { lexicalOnlyReason, noticesToShow } from '../../../src/host/answerNotices';
import { lexicalOnlyNotice, notice, type Notice } from '../../../src/domain/notices';

const DAMAGED = notice(
  'lexical-index-damaged',
  'The lexical index is damaged (lexical-3.bin is 12 bytes, expected 4096): rebuilding it from the stored passages.',
);
const LEXICAL_ONLY = lexicalOnlyNotice('the model folder /models/minilm has no tokenizer.json');

describe('answer notices by code', () => {
  it('a damaged lexical index is said under the answer (its words say "lexical"; it was hidden with the lexical-only reason)', () => {
    const shown = new Set<string>();
    assert.deepEqual(noticesToShow([LEXICAL_ONLY, DAMAGED], shown), [DAMAGED]);
  });

  it('says why retrieval is lexical only in the header, never under an answer', () => {
    const shown = new Set<string>();
    assert.deepEqual(noticesToShow([LEXICAL_ONLY], shown), []);
    assert.equal(lexicalOnlyReason([DAMAGED, LEXICAL_ONLY]), LEXICAL_ONLY.text);
    assert.equal(
      lexicalOnlyReason([DAMAGED]),
      undefined,
      'a damaged lexical index is no reason retrieval is lexical only',
    );
  });

  it('says each other notice under the first answer only, in order', () => {
    const shown = new Set<string>();
    const rebuilt = notice(
      'index-format-changed',
      'The index was written in format 6; this version uses 7: rebuilding it.',
    );
    const busy = notice(
      'index-busy',
      'Another Evident process is updating this index: answering from the index as it last saved it.',
    );
    assert.deepEqual(noticesToShow([rebuilt, busy], shown), [rebuilt, busy]);
    assert.deepEqual(noticesToShow([rebuilt, DAMAGED, busy], shown), [DAMAGED]);
    assert.deepEqual(noticesToShow([DAMAGED], shown), []);
  });

  it('notices are objects, so no text test can sort them (this file would not compile)', () => {
    const n: Notice = DAMAGED;
    // @ts-expect-error a notice is not a string: it is told apart by its code
    assert.equal(/lexical/i.test(n), false);
  });
});
