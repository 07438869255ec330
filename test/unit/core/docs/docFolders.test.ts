import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { folderPrefixes, resolveSource, toSourcePath } from '../../../../src/core/docs/docFolders';
import { Engine, workspaceDocSource } from '../../../../src/core/engine';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

describe('several workspace folders as one docs tree', () => {
  const one = [{ name: 'policies', root: '/w/policies' }];
  const two = [
    { name: 'policies', root: '/w/policies' },
    { name: 'handbook', root: '/w/hb' },
  ];

  it('keeps sources relative to a single folder, and prefixes them with unique folder names for several', () => {
    assert.deepEqual(folderPrefixes(one), ['']);
    assert.deepEqual(folderPrefixes(two), ['policies', 'handbook']);
    assert.deepEqual(folderPrefixes([...two, { name: 'policies', root: '/x/policies' }]), [
      'policies',
      'handbook',
      'policies (2)',
    ]);
    assert.equal(toSourcePath(one, '/w/policies/a/b.md'), 'a/b.md');
    assert.equal(toSourcePath(two, '/w/hb/leave.md'), 'handbook/leave.md');
    assert.equal(toSourcePath(two, '/elsewhere/x.md'), undefined);
  });

  it('resolves sources back to files and refuses paths that leave their folder', () => {
    assert.equal(resolveSource(two, 'handbook/leave.md'), path.resolve('/w/hb/leave.md'));
    assert.equal(resolveSource(one, 'a/b.md'), path.resolve('/w/policies/a/b.md'));
    assert.equal(resolveSource(two, 'handbook/../../etc/passwd'), undefined);
    assert.equal(resolveSource(one, '../secrets.md'), undefined);
    assert.equal(resolveSource(two, 'unknown/x.md'), undefined);
  });

  it('indexes and answers from every folder, with sources that resolve to the right files', async () => {
    const a = await tempDir();
    const b = await tempDir();
    const indexDir = await tempDir('evident-index-');
    try {
      await writeDocs(a, {
        'refunds.md': '# Refunds\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n',
      });
      await writeDocs(b, { 'leave.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n' });
      const folders = [
        { name: 'billing', root: a },
        { name: 'people', root: b },
      ];
      const engine = await Engine.open({ docs: workspaceDocSource(folders), indexDir, embedding: false });
      const report = await engine.index();
      assert.equal(report.documents, 2);
      const result = await engine.ask('How many days of annual leave?', {
        model: new ScriptedModel([
          search('annual leave days'),
          say('Employees receive 25 days of annual leave per year [E1].'),
        ]),
      });
      assert.equal(result.evidence[0].source, 'people/leave.md');
      assert.equal(result.sentences[0].verdict, 'kept');
      assert.equal(resolveSource(folders, result.evidence[0].source), path.join(b, 'leave.md'));

      // Another set of folders is another tree: the index is rebuilt, with a notice.
      const reopened = await Engine.open({ docs: workspaceDocSource([folders[0]]), indexDir, embedding: false });
      const again = await reopened.index();
      assert.equal(again.documents, 1);
      assert.match(again.notices.map((n) => n.text).join(' '), /rebuilding/);
    } finally {
      await removeDir(a);
      await removeDir(b);
      await removeDir(indexDir);
    }
  });
});
