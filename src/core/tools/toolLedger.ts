// Evidence ledgers of agents that call Evident's tools (Copilot agent mode, an MCP client). An
// agent's searches and its check happen in separate tool calls, so the ledger outlives one call:
// it is keyed by the conversation the calls belong to (VS Code gives each tool call its chat
// session; an MCP server serves one client), and it is bounded three ways so it never grows with
// use: a ledger unused for `idleMs` is freed, at most `maxLedgers` are kept (the least recently
// used goes first), and one holds at most `maxPassages` (the oldest ids go first; citing one then
// fails the lookup like any id this conversation was not given).

import type { Evidence, EvidenceLookup, Passage } from '../../domain/types';

export const DEFAULT_LEDGER_LIMITS = { idleMs: 15 * 60_000, maxLedgers: 64, maxPassages: 600 } as const;

export interface LedgerLimits {
  idleMs: number;
  maxLedgers: number;
  maxPassages: number;
}

/** One conversation's passages under ids E1, E2… in the order its searches returned them. */
export class ConversationEvidence implements EvidenceLookup {
  private readonly byId = new Map<string, Evidence>();
  private readonly byPassage = new Map<string, Evidence>();
  private issued = 0;

  constructor(private readonly maxPassages: number) {}

  /** Records a returned passage; one returned before (and still held) keeps its id. */
  record(passage: Passage): Evidence {
    const known = this.byPassage.get(passage.id);
    if (known) return known;
    const { id: passageId, source, startLine, endLine, heading, text, version } = passage;
    const evidence: Evidence = {
      id: `E${++this.issued}`,
      passageId,
      source,
      startLine,
      endLine,
      heading,
      text,
      version,
    };
    this.byId.set(evidence.id, evidence);
    this.byPassage.set(passageId, evidence);
    // Maps iterate in insertion order: the first entry is the oldest id.
    while (this.byId.size > this.maxPassages) {
      const [oldestId, oldest] = this.byId.entries().next().value as [string, Evidence];
      this.byId.delete(oldestId);
      this.byPassage.delete(oldest.passageId);
    }
    return evidence;
  }

  get(id: string): Evidence | undefined {
    return this.byId.get(id);
  }

  all(): readonly Evidence[] {
    return [...this.byId.values()];
  }
}

export class ToolLedgers {
  private readonly open = new Map<string, { evidence: ConversationEvidence; lastUsed: number }>();
  private readonly limits: LedgerLimits;

  constructor(
    limits: Partial<LedgerLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LEDGER_LIMITS, ...limits };
  }

  /** The conversation's ledger, opened on its first search. */
  forSearch(key: string): ConversationEvidence {
    this.sweep();
    const entry = this.open.get(key) ?? { evidence: new ConversationEvidence(this.limits.maxPassages), lastUsed: 0 };
    this.touch(key, entry);
    while (this.open.size > this.limits.maxLedgers) this.open.delete(this.open.keys().next().value as string);
    return entry.evidence;
  }

  /** The conversation's ledger for a check; undefined when it has not searched (or its ledger was freed). */
  forCheck(key: string): ConversationEvidence | undefined {
    this.sweep();
    const entry = this.open.get(key);
    if (entry) this.touch(key, entry);
    return entry?.evidence;
  }

  release(key: string): void {
    this.open.delete(key);
  }

  /** Ledgers held (for the boundedness tests and diagnostics). */
  get size(): number {
    this.sweep();
    return this.open.size;
  }

  private touch(key: string, entry: { evidence: ConversationEvidence; lastUsed: number }): void {
    entry.lastUsed = this.now();
    // Re-inserted last: the map's order is least recently used first.
    this.open.delete(key);
    this.open.set(key, entry);
  }

  private sweep(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [key, entry] of this.open) {
      if (entry.lastUsed > cutoff) break;
      this.open.delete(key);
    }
  }
}
