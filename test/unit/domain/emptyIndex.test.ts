// What the chat says when nothing is indexed, or some files were skipped: the real cause, named.

import assert from 'node:assert/strict';
import { emptyIndexMessage, skippedNotice } from '../../../src/domain/emptyIndex';

const big = { path: 'handbook.md', reason: 'too large (5.0 MB; the limit is 2 MB)' };

describe('empty index and skipped files, in words', () => {
  it('names every skipped file with its reason and says what to do, in full sentences', () => {
    const message = emptyIndexMessage({ files: [big], total: 1 });
    assert.equal(
      message,
      'No passages are indexed: every Markdown file found was skipped — handbook.md (too large (5.0 MB; the limit is 2 MB)). Split a file that is too large into smaller ones, or change the include and exclude settings to index other files.',
    );
  });

  it('says no Markdown was found when nothing was skipped either (not "add .md files" next to one)', () => {
    assert.match(
      emptyIndexMessage(undefined),
      /^No Markdown files were found in this workspace: add \.md files, or change the include and exclude settings/,
    );
    assert.match(emptyIndexMessage({ files: [], total: 0 }), /^No Markdown files were found/);
  });

  it('lists three files and counts the rest, pointing to the log', () => {
    const files = ['a.md', 'b.md', 'c.md', 'd.md'].map((path) => ({ path, reason: 'binary' }));
    assert.equal(
      skippedNotice({ files, total: 9 }),
      '9 files were not indexed: a.md (binary), b.md (binary), c.md (binary), and 6 more (see the log).',
    );
    assert.equal(
      skippedNotice({ files: [big], total: 1 }),
      '1 file was not indexed: handbook.md (too large (5.0 MB; the limit is 2 MB)).',
    );
  });
});
