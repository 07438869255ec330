// At answer time each cited source is hashed again: a file edited after indexing (the index did
// not see it, or it changed since) marks its evidence stale, and every face warns about it.

import { strict as assert } from 'node:assert';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { toJson, warnAboutStaleSources } from '../../../../src/cli/commands/ask';
import { Engine, folderDocSource } from '../../../../src/core/engine';
import { staleSourcesWarning } from '../../../../src/domain/staleSources';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

describe('stale sources at answer time', function () {
  this.timeout(60_000);
  let work: string;
  let docs: string;

  beforeEach(async () => {
    work = await tempDir('evident-stale-');
    docs = path.join(work, 'docs');
    await writeDocs(docs, {
      'leave.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n',
      'travel.md': '# Travel\n\nEconomy class is required for flights under six hours.\n',
    });
  });

  afterEach(async () => {
    await removeDir(work);
  });

  const ask = async (engine: Engine) =>
    engine.ask('How much annual leave?', {
      model: new ScriptedModel([
        search('annual leave'),
        say('Employees receive 25 days of annual leave per year [E1].'),
      ]),
    });

  it('marks the evidence of a file edited after indexing (same size, mtime restored) as stale, and warns', async () => {
    const engine = await Engine.open({
      docs: folderDocSource(docs),
      indexDir: path.join(work, 'index'),
      embedding: false,
    });
    await engine.index();
    const file = path.join(docs, 'leave.md');
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('25 days', '15 days'));
    await utimes(file, before.atime, before.mtime);

    const result = await ask(engine);
    const e1 = result.evidence.find((e) => e.id === 'E1');
    assert.equal(e1?.source, 'leave.md');
    assert.equal(e1?.stale, true);
    assert.ok(
      result.evidence.filter((e) => e.source !== 'leave.md').every((e) => !e.stale),
      'unchanged files are not stale',
    );
    const warning = staleSourcesWarning(result);
    assert.match(warning ?? '', /changed since it was indexed: "leave\.md"/);

    // The CLI: said on stderr, and carried in the JSON's notices and on the evidence.
    let stderr = '';
    warnAboutStaleSources(result, { stderr: (t) => void (stderr += t) });
    assert.match(stderr, /^evident: A cited file has changed since it was indexed: "leave\.md"/);
    const json = toJson(result);
    assert.equal(json.evidence.find((e) => e.id === 'E1')?.stale, true);
    assert.ok(json.notices.some((n) => /changed since it was indexed/.test(n)));
  });

  it('marks nothing when the files are as indexed, and a deleted file as stale', async () => {
    const engine = await Engine.open({
      docs: folderDocSource(docs),
      indexDir: path.join(work, 'index'),
      embedding: false,
    });
    await engine.index();
    const fresh = await ask(engine);
    assert.ok(fresh.evidence.every((e) => e.stale === undefined));
    assert.equal(staleSourcesWarning(fresh), undefined);
    assert.ok(!('stale' in (toJson(fresh).evidence[0] ?? {})), 'no field when not stale (contract shape unchanged)');
    await removeDir(path.join(docs, 'leave.md'));
    const gone = await ask(engine);
    assert.equal(gone.evidence.find((e) => e.source === 'leave.md')?.stale, true);
  });
});
