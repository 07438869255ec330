// The patterns spelt out without the `i` flag match what the `iu` flags match, character by character.

import * as assert from 'node:assert/strict';
import { anyCase, WORD_CHAR } from '../../../../src/core/text/caseless';

describe('caseless patterns', () => {
  it('match each letter and each word character as the iu flags do, over the whole BMP', () => {
    const spelt = [...'abcdefghijklmnopqrstuvwxyz'].map((c) => new RegExp(`^${anyCase(c)}$`, 'u'));
    const flagged = [...'abcdefghijklmnopqrstuvwxyz'].map((c) => new RegExp(`^${c}$`, 'iu'));
    const word = new RegExp(`^${WORD_CHAR}$`, 'u');
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCharCode(code);
      assert.equal(word.test(ch), /^\w$/iu.test(ch), `word character U+${code.toString(16)}`);
      spelt.forEach((re, i) => assert.equal(re.test(ch), flagged[i].test(ch), `${re} U+${code.toString(16)}`));
    }
  });
});
