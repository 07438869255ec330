// A source path split for display (src/webview/sourceName.ts): file name, folder, and the
// folder's head (cut first when narrow) and last part.

import assert from 'node:assert/strict';
import { splitFolder, splitSource } from '../../../src/webview/sourceName';

describe('source names', () => {
  it('splits a path into its file name and folder', () => {
    assert.deepEqual(splitSource('pages/benefits/leave.md'), { name: 'leave.md', folder: 'pages/benefits' });
    assert.deepEqual(splitSource('leave.md'), { name: 'leave.md', folder: '' });
  });

  it('splits a folder into the head that may be cut and its last part', () => {
    assert.deepEqual(splitFolder('pages/benefits/leave'), { head: 'pages/benefits/', tail: 'leave/' });
    assert.deepEqual(splitFolder('pages'), { head: '', tail: 'pages/' });
    assert.deepEqual(splitFolder(''), { head: '', tail: '' });
  });
});
