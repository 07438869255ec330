// Sources at any width: the file name and the line range whole, the folder shortened in the middle.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSources, sourceFolder } from '../../../src/webview/sourcesView';
import { splitFolder } from '../../../src/webview/sourceName';
import { evidence, sentences, turnResult } from '../../support/turnBuilder';

const doc = new JSDOM('<!doctype html><html><body></body></html>').window.document;
const actions = { openEvidence: () => undefined };

describe('sources', () => {
  it('splits a folder into the start that may be cut and its last part, kept', () => {
    assert.deepEqual(splitFolder('pages/travel-and-leave/leave'), { head: 'pages/travel-and-leave/', tail: 'leave/' });
    assert.deepEqual(splitFolder('hr'), { head: '', tail: 'hr/' });
    assert.deepEqual(splitFolder(''), { head: '', tail: '' });
    const folder = sourceFolder(doc, 'pages/travel-and-leave');
    assert.deepEqual(
      Array.from(folder.children).map((c) => [c.className, c.textContent]),
      [
        ['folder-head', 'pages/'],
        ['folder-tail', 'travel-and-leave/'],
      ],
    );
    assert.equal(folder.title, 'pages/travel-and-leave/');
  });

  it('lays a row out as chip, file name, folder, lines (each its own box), and no folder box for a file at the root', () => {
    const result = turnResult({
      sentences: sentences({ text: 'A [E1].', citations: ['E1'] }, { text: 'B [E2].', citations: ['E2'] }),
      evidence: [
        evidence('E1', {
          source: 'pages/travel-and-leave/a-very-long-file-name-about-leave.md',
          startLine: 403,
          endLine: 412,
        }),
        evidence('E2', { source: 'README.md', startLine: 1, endLine: 1 }),
      ],
    });
    const sources = renderSources(doc, 't1', result, actions);
    const rows = Array.from(sources?.querySelectorAll('[data-testid="source"]') ?? []);
    const parts = (row: Element) =>
      Array.from(row.querySelector('.source-where')?.children ?? []).map((c) => [
        c.getAttribute('data-testid'),
        c.textContent,
      ]);
    assert.deepEqual(parts(rows[0]), [
      ['source-name', 'a-very-long-file-name-about-leave.md'],
      ['source-folder', 'pages/travel-and-leave/'],
      ['source-lines', 'lines 403–412'],
    ]);
    assert.deepEqual(parts(rows[1]), [
      ['source-name', 'README.md'],
      ['source-lines', 'line 1'],
    ]);
    assert.equal(
      rows[0].getAttribute('title'),
      'pages/travel-and-leave/a-very-long-file-name-about-leave.md, lines 403–412',
    );
  });
});
