import { strict as assert } from 'node:assert';
import { citationTarget, highlightable } from '../../../src/host/citationTarget';
import { documentVersion } from '../../../src/core/docs/version';

const INDEXED =
  '# Leave\n\nAnnual leave accrues at 4 hours per pay period.\n\n## Carry-over\n\nUp to 240 hours carry over.\n';
// The same file in a workspace whose copy gained a paragraph above: every line below moved down.
const CHANGED =
  '# Leave\n\nAsk your supervisor first.\n\nAnnual leave accrues at 4 hours per pay period.\n\n## Carry-over\n\nUp to 240 hours carry over.\n';

describe('citation target: a cited passage never opens at lines that no longer hold it', () => {
  const evidence = { id: 'E1', version: documentVersion(INDEXED), startLine: 7, endLine: 7 };

  it('a shared index opens the workspace file only when it holds the cited version', () => {
    assert.equal(citationTarget(evidence, 'shared', documentVersion(INDEXED)), 'lines');
    assert.equal(
      citationTarget(evidence, 'shared', documentVersion(CHANGED)),
      'passage',
      'a changed copy: the passage read-only, not line 7 of the copy',
    );
    assert.equal(citationTarget(evidence, 'shared', undefined), 'passage', 'no such file here: the passage read-only');
  });

  it('a local index opens a changed file with a stale warning, and says when the file is gone', () => {
    assert.equal(citationTarget(evidence, 'local', documentVersion(INDEXED)), 'lines');
    assert.equal(citationTarget(evidence, 'local', documentVersion(CHANGED)), 'stale-lines');
    assert.equal(citationTarget(evidence, 'local', undefined), 'missing');
  });

  it('highlights cited lines only in a document at the cited version', () => {
    const other = { id: 'E2', version: documentVersion(CHANGED), startLine: 9, endLine: 9 };
    assert.deepEqual(highlightable([evidence, other], documentVersion(INDEXED)), [evidence]);
    assert.deepEqual(highlightable([evidence, other], documentVersion(CHANGED)), [other]);
    assert.deepEqual(
      highlightable([evidence], documentVersion(`${INDEXED} `)),
      [],
      'one changed character is another version',
    );
  });
});
