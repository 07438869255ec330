// The agents' ledgers stay bounded however they are used: idle ledgers are freed, at most
// maxLedgers are kept (least recently used first), and one ledger keeps its newest maxPassages.

import { strict as assert } from 'node:assert';
import { ConversationEvidence, ToolLedgers } from '../../../../src/core/tools/toolLedger';
import type { Passage } from '../../../../src/domain/types';

const passage = (n: number): Passage => ({
  id: `p${n}`,
  source: `doc${n}.md`,
  headingPath: [],
  heading: '',
  startLine: n,
  endLine: n,
  text: `text ${n}`,
  version: 'v',
});

describe("ToolLedgers (bounded ledgers of agents' conversations)", () => {
  it('gives ids E1, E2… in order; a passage returned again keeps its id', () => {
    const ledger = new ConversationEvidence(10);
    assert.deepEqual(
      [1, 2, 1, 3].map((n) => ledger.record(passage(n)).id),
      ['E1', 'E2', 'E1', 'E3'],
    );
    assert.equal(ledger.get('E2')?.source, 'doc2.md');
  });

  it('keeps the newest maxPassages: the oldest ids then fail the lookup, and numbering goes on', () => {
    const ledger = new ConversationEvidence(3);
    for (let n = 1; n <= 5; n++) ledger.record(passage(n));
    assert.deepEqual(
      ledger.all().map((e) => e.id),
      ['E3', 'E4', 'E5'],
    );
    assert.equal(ledger.get('E1'), undefined);
    assert.equal(ledger.record(passage(1)).id, 'E6', 'an evicted passage comes back under a new id');
  });

  it('keys ledgers by conversation and frees the least recently used beyond maxLedgers', () => {
    const ledgers = new ToolLedgers({ maxLedgers: 2 });
    ledgers.forSearch('a').record(passage(1));
    ledgers.forSearch('b').record(passage(2));
    assert.equal(ledgers.forCheck('a')?.get('E1')?.source, 'doc1.md', 'conversation a has its own E1');
    ledgers.forSearch('c');
    assert.equal(ledgers.size, 2);
    assert.equal(ledgers.forCheck('b'), undefined, 'b was the least recently used');
    assert.ok(ledgers.forCheck('a'));
  });

  it('frees a ledger unused for idleMs, and a check never opens one', () => {
    let now = 0;
    const ledgers = new ToolLedgers({ idleMs: 100 }, () => now);
    assert.equal(ledgers.forCheck('a'), undefined);
    assert.equal(ledgers.size, 0);
    ledgers.forSearch('a');
    now = 99;
    assert.ok(ledgers.forCheck('a'));
    now = 199;
    assert.equal(ledgers.size, 0);
    ledgers.forSearch('b');
    ledgers.release('b');
    assert.equal(ledgers.size, 0);
  });

  it('stays bounded over many conversations', () => {
    const ledgers = new ToolLedgers({ maxLedgers: 8, maxPassages: 4 });
    for (let i = 0; i < 1000; i++) for (let n = 0; n < 10; n++) ledgers.forSearch(`chat-${i}`).record(passage(n));
    assert.equal(ledgers.size, 8);
    assert.equal(ledgers.forCheck('chat-999')?.all().length, 4);
  });
});
