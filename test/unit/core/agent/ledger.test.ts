// The evidence ledger: ids E1, E2… per invocation, and release on every path of a turn.

import { strict as assert } from 'node:assert';
import { runTurn } from '../../../../src/core/agent/agentLoop';
import { EvidenceLedger } from '../../../../src/core/agent/ledger';
import type { Passage } from '../../../../src/domain/types';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';

describe('evidence ledger', () => {
  const passage = (n: number): Passage => ({
    id: `p${n}`,
    source: `doc${n}.md`,
    headingPath: ['H'],
    heading: 'H',
    startLine: n,
    endLine: n + 1,
    text: `text ${n}`,
    version: 'v',
  });

  it('numbers passages E1, E2… in the order returned; the same passage keeps its first id', () => {
    const ledger = new EvidenceLedger();
    const inv = ledger.begin('a');
    assert.equal(inv.record(passage(7)).id, 'E1');
    assert.equal(inv.record(passage(3)).id, 'E2');
    assert.equal(inv.record(passage(7)).id, 'E1');
    assert.deepEqual(
      inv.all().map((e) => [e.id, e.source, e.startLine]),
      [
        ['E1', 'doc7.md', 7],
        ['E2', 'doc3.md', 3],
      ],
    );
  });

  it('tells its owner of each passage as it enters a turn, once (the engine prepares it then for the check)', () => {
    const entered: string[] = [];
    const ledger = new EvidenceLedger((e) => entered.push(`${e.id}:${e.text}`));
    const inv = ledger.begin('a');
    inv.record(passage(7));
    inv.record(passage(7));
    inv.recordChunk({ uri: 'https://example.com', title: 'Example', text: 'web text' });
    inv.recordChunk({ uri: 'https://example.com', title: 'Example', text: 'web text' });
    ledger.begin('b').record(passage(7));
    assert.deepEqual(entered, ['E1:text 7', 'E2:web text', 'E1:text 7']);
  });

  it('keeps ids local to an invocation', () => {
    const ledger = new EvidenceLedger();
    const a = ledger.begin('a');
    const b = ledger.begin('b');
    a.record(passage(1));
    a.record(passage(2));
    assert.equal(b.get('E2'), undefined);
    assert.throws(() => ledger.begin('a'), /already open/);
  });

  it('stays bounded over thousands of turns that succeed, fail or are cancelled', async () => {
    const ledger = new EvidenceLedger();
    const deps = {
      ledger,
      retrieval: 'lexical' as const,
      search: async () => [
        { passage: passage(1), score: 1 },
        { passage: passage(2), score: 0.5 },
      ],
      verify: async (text: string) => ({ answer: text, abstained: false, sentences: [] }),
    };
    let ok = 0;
    let failed = 0;
    let cancelled = 0;
    const turns: Promise<void>[] = [];
    for (let i = 0; i < 3000; i++) {
      const kind = i % 3;
      const controller = new AbortController();
      const model =
        kind === 0
          ? new ScriptedModel([search('q'), say('fine [E1].')])
          : kind === 1
            ? new ScriptedModel([search('q'), { error: new Error('model exploded') }])
            : new ScriptedModel([search('q'), { hang: true }]);
      const turn = runTurn(`question ${i}`, model, deps, { signal: controller.signal }).then(
        () => void ok++,
        (error: Error) => void (error.name === 'AbortError' ? cancelled++ : failed++),
      );
      if (kind === 2) setImmediate(() => controller.abort());
      turns.push(turn);
      if (turns.length >= 200) await Promise.all(turns.splice(0));
    }
    await Promise.all(turns);
    assert.deepEqual([ok, failed, cancelled], [1000, 1000, 1000]);
    assert.equal(ledger.size, 0, 'every invocation was released');
  });
});
