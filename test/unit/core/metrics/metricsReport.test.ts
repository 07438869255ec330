import { strict as assert } from 'node:assert';
import { metricsReport } from '../../../../src/core/metrics/metricsReport';
import { recordLines, repeat } from '../../../support/metricsRecords';

describe('metrics report (aggregation)', () => {
  const log = recordLines([
    { model: 'extractive', topic: 'hr', factual: 2, dropped: 0, retrieved: 4 },
    { model: 'extractive', topic: 'hr', abstained: true, retrieved: 6 },
    { model: 'gemini', topic: 'security', factual: 4, dropped: 1, retrieved: 6, indexVersion: 'lexical@12' },
    { model: 'gemini', topic: 'security', factual: 4, dropped: 2, retrieved: 8, indexVersion: 'lexical@12' },
  ]);

  it('totals and rates overall: drop rate over factual sentences, coverage over answered turns, abstention over turns', () => {
    const r = metricsReport(log);
    assert.equal(r.turns, 4);
    assert.deepEqual(r.overall, {
      turns: 4,
      abstained: 1,
      abstentionRate: 0.25,
      factualSentences: 10,
      dropped: 3,
      dropRate: 0.3,
      meanCoverage: (1 + 0.75 + 0.5) / 3,
      meanRetrieved: 6,
    });
  });

  it('groups by model, index version, topic and UTC day', () => {
    const r = metricsReport(log);
    assert.deepEqual(Object.keys(r.byModel), ['extractive', 'gemini']);
    assert.equal(r.byModel.gemini.dropRate, 3 / 8);
    assert.equal(r.byModel.extractive.abstentionRate, 0.5);
    assert.deepEqual(Object.keys(r.byIndexVersion), ['lexical@10', 'lexical@12']);
    assert.equal(r.byTopic.hr.turns, 2);
    assert.equal(r.byTopic.security.meanCoverage, 0.625);
    assert.deepEqual(
      r.byDay.map((d) => [d.day, d.turns]),
      [['2026-11-01', 4]],
    );
    assert.deepEqual(
      r.changes.map((c) => [c.turn, c.kind, c.from, c.to]),
      [
        [3, 'model', 'extractive', 'gemini'],
        [3, 'index', 'lexical@10', 'lexical@12'],
      ],
    );
  });

  it('--since keeps the turns at or after a time', () => {
    const r = metricsReport(log, { since: new Date('2026-11-01T09:02:00Z') });
    assert.equal(r.turns, 2);
    assert.deepEqual(Object.keys(r.byModel), ['gemini']);
  });

  it('an empty log is a report with no turns, no alerts and null rates', () => {
    const r = metricsReport('');
    assert.equal(r.turns, 0);
    assert.equal(r.overall.dropRate, null);
    assert.equal(r.overall.meanCoverage, null);
    assert.deepEqual(r.alerts, []);
    assert.deepEqual(r.timeline, []);
  });

  it('reads old lines (no factual count, a document as topic) and skips lines that are not records', () => {
    const old = [
      '{"time":"2026-10-01T10:00:00.000Z","invocationId":"a","model":"extractive","retrieval":"lexical","indexVersion":"lexical@9","topic":"hr/leave.md","retrieved":6,"coverage":0.5,"dropped":1,"abstained":false}',
      '{"time":"2026-10-01T10:01:00.000Z","invocationId":"b","model":"extractive","retrieval":"lexical","indexVersion":"lexical@9","topic":"refunds.md","retrieved":6,"coverage":1,"dropped":0,"abstained":false}',
      '{"time":"2026-10-01T10:0',
      'not json',
      '{"time":"2026-10-01T10:03:00.000Z","retrieved":-1,"coverage":1,"dropped":0,"abstained":false}',
    ].join('\n');
    const r = metricsReport(old);
    assert.equal(r.turns, 2);
    assert.equal(r.skippedLines, 3);
    assert.deepEqual(Object.keys(r.byTopic).sort(), ['hr', 'refunds']);
    assert.equal(
      r.overall.factualSentences,
      3,
      '2 inferred from coverage 0.5 with 1 dropped, 1 for a turn that answered',
    );
    assert.equal(r.overall.dropped, 1);
  });

  it('the timeline has at most 60 points, covering every turn once in order', () => {
    const r = metricsReport(recordLines(repeat(150, (i) => ({ abstained: i >= 100 }))));
    assert.ok(r.timeline.length <= 60);
    assert.equal(r.timeline[0].firstTurn, 1);
    assert.equal(r.timeline[r.timeline.length - 1].lastTurn, 150);
    for (let i = 1; i < r.timeline.length; i++) assert.equal(r.timeline[i].firstTurn, r.timeline[i - 1].lastTurn + 1);
    assert.equal(r.timeline[0].abstentionRate, 0);
    assert.equal(r.timeline[r.timeline.length - 1].abstentionRate, 1);
  });
});
