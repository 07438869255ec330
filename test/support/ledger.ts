// A small evidence ledger for verifier tests: passages under ids E1, E2… as the agent records them.

import type { Evidence, EvidenceLookup } from '../../src/domain/types';

export function ledgerOf(passages: Record<string, string>): EvidenceLookup {
  const items: Evidence[] = Object.entries(passages).map(([id, text], i) => ({
    id,
    passageId: `p${i}`,
    source: `policy-${i}.md`,
    startLine: 1,
    endLine: 5,
    heading: 'Policy',
    text,
    version: 'v1',
  }));
  const byId = new Map(items.map((e) => [e.id, e]));
  return { get: (id) => byId.get(id), all: () => items };
}
