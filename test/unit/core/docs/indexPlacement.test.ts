// The index never lands inside the docs: real paths (symlinks resolved, a folder that does not
// exist yet through its nearest existing ancestor) compared by whole path segments, in the CLI
// and in the engine every face opens.

import { strict as assert } from 'node:assert';
import { mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { docsFolderHoldingIndex, isWithin, realPathOf } from '../../../../src/core/docs/indexPlacement';
import { Engine, folderDocSource, IndexInsideDocsError } from '../../../../src/core/engine';
import { runCli } from '../../../support/cli';
import { removeDir, snapshot, tempDir, writeDocs } from '../../../support/workspace';

describe('the index is never inside the docs', function () {
  this.timeout(60_000);
  let work: string;
  let docs: string;
  let cache: string;

  beforeEach(async () => {
    work = await tempDir('evident-placement-');
    docs = path.join(work, 'docs');
    cache = path.join(work, 'cache');
    await writeDocs(docs, { 'a.md': '# Leave\n\nEmployees receive 25 days of annual leave.\n' });
  });

  afterEach(async () => {
    await removeDir(work);
  });

  const index = (args: string[]) => runCli(['index', ...args, '--no-embeddings'], { XDG_CACHE_HOME: cache });

  it('compares whole path segments: "docs/..cache" is inside docs, "docs-cache" is not', () => {
    assert.equal(isWithin('/w/docs', '/w/docs/..cache'), true);
    assert.equal(isWithin('/w/docs', '/w/docs'), true);
    assert.equal(isWithin('/w/docs', '/w/docs-cache'), false);
    assert.equal(isWithin('/w/docs', '/w'), false);
    assert.equal(isWithin('/w/docs', '/w/docs/../x'), false);
  });

  it('resolves a folder that does not exist yet through its nearest existing ancestor', async () => {
    const link = path.join(work, 'link');
    await symlink(docs, link, 'dir');
    assert.equal(realPathOf(path.join(link, 'not', 'yet')), path.join(realPathOf(docs), 'not', 'yet'));
    assert.equal(docsFolderHoldingIndex(path.join(link, 'idx'), [docs]), docs);
    assert.equal(docsFolderHoldingIndex(path.join(work, 'idx'), [docs]), undefined);
  });

  it('CLI: refuses --index-dir docs/..cache (a name starting with ".." inside docs), writing nothing', async () => {
    const before = await snapshot(docs);
    const run = await index(['--docs', docs, '--index-dir', path.join(docs, '..cache')]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--index-dir must be outside --docs/);
    assert.deepEqual(await snapshot(docs), before, 'nothing written inside --docs');
  });

  it('CLI: refuses an --index-dir that is a symlink into the docs', async () => {
    await mkdir(path.join(docs, 'store'));
    const link = path.join(work, 'index-link');
    await symlink(path.join(docs, 'store'), link, 'dir');
    const before = await snapshot(docs);
    const run = await index(['--docs', docs, '--index-dir', link]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--index-dir must be outside --docs/);
    assert.deepEqual(await snapshot(docs), before);
  });

  it('CLI: refuses --docs given through a symlink with the index at the real path inside', async () => {
    const link = path.join(work, 'docs-link');
    await symlink(docs, link, 'dir');
    const before = await snapshot(docs);
    const run = await index(['--docs', link, '--index-dir', path.join(docs, 'idx')]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--index-dir must be outside --docs/);
    assert.deepEqual(await snapshot(docs), before);
  });

  it('CLI: accepts an index beside the docs whose name merely starts with the docs name', async () => {
    const run = await index(['--docs', docs, '--index-dir', path.join(work, 'docs-cache')]);
    assert.equal(run.code, 0, run.stderr);
  });

  it('engine: refuses to open an index inside any of its docs folders (the editor opens it this way)', async () => {
    const other = path.join(work, 'handbook');
    await writeDocs(other, { 'b.md': '# B\n\nText.\n' });
    const { workspaceDocSource } = await import('../../../../src/core/engine');
    const source = workspaceDocSource([
      { name: 'docs', root: docs },
      { name: 'handbook', root: other },
    ]);
    await assert.rejects(
      Engine.open({ docs: source, indexDir: path.join(other, '..idx') }),
      (e: unknown) => e instanceof IndexInsideDocsError && e.docsRoot === other,
    );
    await assert.rejects(Engine.open({ docs: folderDocSource(docs), indexDir: docs }), IndexInsideDocsError);
    const fine = await Engine.open({ docs: source, indexDir: path.join(work, 'storage', 'index') });
    assert.equal(fine.status().indexed, false);
  });
});
