import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Engine, folderDocSource } from '../../../../src/core/engine';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';
import { appendFeedback } from '../../../../src/core/metrics/turnLog';

describe('metrics and audit logs', () => {
  let docs: string;
  let indexDir: string;

  before(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, {
      'refunds.md':
        '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n',
      'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
    });
  });

  after(async () => {
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('appends the four numbers per turn with time, model, index version and topic, and an audit record per turn', async () => {
    const metricsLog = path.join(indexDir, 'logs', 'metrics.jsonl');
    const auditLog = path.join(indexDir, 'logs', 'audit.jsonl');
    const engine = await Engine.open({
      docs: folderDocSource(docs),
      indexDir: path.join(indexDir, 'idx'),
      embedding: false,
      metricsLog,
      auditLog,
    });
    await engine.index();
    await engine.ask('Annual refunds?', {
      model: new ScriptedModel([
        search('annual plans refundable'),
        say('Annual plans are refundable pro rata within 90 days of purchase [E1]. They are also free [E1].'),
      ]),
    });
    await engine.ask('Cars?', {
      model: new ScriptedModel([search('company car'), say('NOT_FOUND: nothing about cars.')]),
    });

    const metrics = (await readFile(metricsLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(metrics.length, 2);
    assert.equal(metrics[0].model, 'scripted');
    assert.equal(metrics[0].retrieval, 'lexical');
    assert.equal(metrics[0].topic, 'Refunds', 'the area: first heading of a document at the root');
    assert.equal(metrics[0].dropped, 1);
    assert.equal(metrics[0].factual, 2);
    assert.equal(metrics[0].coverage, 0.5);
    assert.equal(metrics[0].abstained, false);
    assert.ok(metrics[0].retrieved >= 1);
    assert.ok(!Number.isNaN(Date.parse(metrics[0].time)));
    assert.match(metrics[0].indexVersion, /^lexical@\d+$/);
    assert.equal(metrics[1].abstained, true);
    // Who abstained and the relevance verdict are counted too.
    assert.equal(metrics[0].relevance, 'answers');
    assert.equal(metrics[0].abstainedBy, undefined);
    assert.equal(metrics[1].abstainedBy, 'model');

    await engine.ask('What is the vesting schedule for stock options on flights?', {
      model: new ScriptedModel([
        search('flights'),
        say('Economy class is required for flights shorter than six hours [E1].'),
      ]),
    });
    const third = JSON.parse((await readFile(metricsLog, 'utf8')).trim().split('\n')[2]);
    assert.deepEqual([third.abstained, third.abstainedBy, third.relevance], [true, 'relevance', 'off-topic']);

    const audit = (await readFile(auditLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(audit[0].cited, ['E1']);
    const e1 = audit[0].evidence.find((e: { id: string }) => e.id === 'E1');
    assert.equal(e1.source, 'refunds.md');
    assert.equal(e1.startLine, 5);
    assert.match(e1.version, /^[0-9a-f]{16}$/);
    assert.match(e1.passageId, /^[0-9a-f]{16}/);
    assert.equal(e1.text, undefined, 'the audit stores ids, lines and versions, not passage texts');
    assert.equal(audit[0].indexVersion, metrics[0].indexVersion);
  });
});

describe('answer feedback in the turn log', () => {
  it('appends the verdict as a line with the invocation id and only the optional feedback field', async () => {
    const dir = await tempDir('evident-feedback-');
    try {
      const log = path.join(dir, 'metrics.jsonl');
      await appendFeedback(log, 'inv-42', 'unhelpful', new Date('2026-01-02T03:04:05Z'));
      await appendFeedback(log, 'inv-42', 'helpful', new Date('2026-01-02T03:05:00Z'));
      const lines = (await readFile(log, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines, [
        { time: '2026-01-02T03:04:05.000Z', invocationId: 'inv-42', feedback: 'unhelpful' },
        { time: '2026-01-02T03:05:00.000Z', invocationId: 'inv-42', feedback: 'helpful' },
      ]);
    } finally {
      await removeDir(dir);
    }
  });
});
