import { strict as assert } from 'node:assert';
import { areaOf, commonFolderOf, topicOf } from '../../../../src/core/metrics/topic';

describe('topic of a turn', () => {
  const ev = (id: string, source: string, heading = '') => ({
    id,
    passageId: id,
    source,
    startLine: 1,
    endLine: 2,
    heading,
    text: '',
    version: 'v',
  });
  const kept = (citations: string[]) => ({
    text: '',
    citations,
    verdict: 'kept' as const,
    reason: 'supported',
    code: 'supported' as const,
    support: 1,
    start: 0,
    end: 0,
  });

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
