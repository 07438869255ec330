// A small evidence ledger for verifier tests: passages under ids E1, E2… as the agent records them.

import type { Evidence, EvidenceLookup } from '../../src/domain/types';

/**
 * `headings`: a passage's first line is its heading path, as the verifier reads a passage (the
 * heading, a line break, the text: agentLoop's verifierView); otherwise every passage is under 'Policy'.
 */
export function ledgerOf(passages: Record<string, string>, options: { headings?: boolean } = {}): EvidenceLookup {
  const items: Evidence[] = Object.entries(passages).map(([id, text], i) => ({
    id,
    passageId: `p${i}`,
    source: `policy-${i}.md`,
    startLine: 1,
    endLine: 5,
    heading: options.headings && text.includes('\n') ? text.slice(0, text.indexOf('\n')) : 'Policy',
    text,
    version: 'v1',
  }));
  const byId = new Map(items.map((e) => [e.id, e]));
  return { get: (id) => byId.get(id), all: () => items };
}
