import { strict as assert } from 'node:assert';
import { metricsReport } from '../../../../src/core/metrics/metricsReport';
import { areaOf, commonFolderOf, topicOf } from '../../../../src/core/metrics/topic';
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
    assert.deepEqual(r.byDay.map((d) => [d.day, d.turns]), [['2026-11-01', 4]]);
    assert.deepEqual(r.changes.map((c) => [c.turn, c.kind, c.from, c.to]), [[3, 'model', 'extractive', 'gemini'], [3, 'index', 'lexical@10', 'lexical@12']]);
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
    assert.equal(r.overall.factualSentences, 3, '2 inferred from coverage 0.5 with 1 dropped, 1 for a turn that answered');
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

describe('topic of a turn', () => {
  const ev = (id: string, source: string, heading = '') => ({ id, passageId: id, source, startLine: 1, endLine: 2, heading, text: '', version: 'v' });
  const kept = (citations: string[]) => ({ text: '', citations, verdict: 'kept' as const, reason: 'supported', code: 'supported' as const, support: 1, start: 0, end: 0 });

  it('area: top folder, else first heading, else the file name', () => {
    assert.equal(areaOf('hr/leave/parental.md', 'Leave > Parental'), 'hr');
    assert.equal(areaOf('refunds.md', 'Refunds > Annual plans'), 'Refunds');
    assert.equal(areaOf('refunds.md', ''), 'refunds');
  });

  it('the most cited area wins; an abstention takes the retrieved passages', () => {
    const evidence = [ev('E1', 'travel/air.md'), ev('E2', 'hr/leave.md'), ev('E3', 'hr/pay.md')];
    assert.equal(topicOf({ evidence, sentences: [kept(['E2']), kept(['E3', 'E1'])] }), 'hr');
    assert.equal(topicOf({ evidence, sentences: [kept(['E1'])] }), 'travel');
    assert.equal(topicOf({ evidence, sentences: [] }), 'hr');
    assert.equal(topicOf({ evidence: [], sentences: [] }), null);
  });

  it('a folder that holds every document is skipped: areas are taken below it', () => {
    assert.equal(commonFolderOf(['policies/hr/leave.md', 'policies/refunds.md']), 'policies/');
    assert.equal(commonFolderOf(['a/b/x.md', 'a/b/y.md']), 'a/b/');
    assert.equal(commonFolderOf(['a/x.md', 'b/y.md']), '');
    assert.equal(commonFolderOf(['x.md']), '');
    const evidence = [ev('E1', 'policies/refunds.md', 'Refunds > Annual'), ev('E2', 'policies/hr/leave.md', 'Leave')];
    assert.equal(topicOf({ evidence, sentences: [kept(['E1'])] }, 'policies/'), 'Refunds');
    assert.equal(topicOf({ evidence, sentences: [kept(['E2'])] }, 'policies/'), 'hr');
  });
});
