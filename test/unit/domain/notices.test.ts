// Notices carry a code from one closed list and a text; repeats are said once, and a notice an
// earlier version saved as a plain string is read back as one.

import { strict as assert } from 'node:assert';
import {
  isNotice,
  lexicalOnlyNotice,
  notice,
  NOTICE_CODES,
  noticeTexts,
  uniqueNotices,
  upgradeSavedNotice,
} from '../../../src/domain/notices';

describe('notices', () => {
  it('checks a notice: a code of the list and a text, nothing else', () => {
    for (const code of NOTICE_CODES) assert.equal(isNotice(notice(code, 'Said.')), true, code);
    for (const bad of [
      null,
      'Said.',
      {},
      { code: 'index-busy' },
      { text: 'Said.' },
      { code: 'not-a-code', text: 'Said.' },
      { code: 'index-busy', text: 3 },
    ]) {
      assert.equal(isNotice(bad), false, JSON.stringify(bad));
    }
  });

  it('says why retrieval is lexical only in the words the CLI has always printed, as a lexical-only notice', () => {
    assert.deepEqual(lexicalOnlyNotice('the model could not be downloaded (HTTP 404)'), {
      code: 'lexical-only',
      text: 'No embedding model (the model could not be downloaded (HTTP 404)): retrieval is lexical only.',
    });
  });

  it('keeps the first of notices with the same text, in order, and gives the texts for the CLI', () => {
    const a = notice('index-busy', 'Another process is updating this index.');
    const b = notice('lexical-index-damaged', 'The lexical index is damaged.');
    assert.deepEqual(uniqueNotices([a, b, { ...a }, b]), [a, b]);
    assert.deepEqual(noticeTexts([b, a]), [b.text, a.text]);
  });

  it('reads a notice saved as a plain string (an earlier version) as one of an earlier version; anything else as it is', () => {
    assert.deepEqual(upgradeSavedNotice('The index was rebuilt.'), {
      code: 'earlier-version',
      text: 'The index was rebuilt.',
    });
    const today = notice('index-moved', 'Moved.');
    assert.equal(upgradeSavedNotice(today), today);
    assert.equal(upgradeSavedNotice(7), 7);
  });
});
