// The evidence ledger: per invocation (one turn), the passages returned to the model under
// ids E1, E2… in the order they were returned. Ids are local to the invocation, so an id from
// an earlier turn fails the lookup. Every invocation is released when its turn ends — success,
// error or cancellation — so the ledger never grows with the number of turns. Whoever owns the
// ledger may be told of each passage as it enters a turn's evidence (the engine prepares it then
// for the support check).

import { createHash } from 'node:crypto';
import type { Evidence, EvidenceLookup, GroundingChunk, Passage } from '../../domain/types';

/** Told of each evidence as it enters a turn (once per evidence id). */
export type EvidenceListener = (evidence: Evidence) => void;

export class InvocationEvidence implements EvidenceLookup {
  private readonly byId = new Map<string, Evidence>();
  private readonly byPassage = new Map<string, Evidence>();

  constructor(
    readonly invocationId: string,
    private readonly onRecord?: EvidenceListener,
  ) {}

  /** Records a returned passage; the same passage returned twice keeps its first id. */
  record(passage: Passage): Evidence {
    const known = this.byPassage.get(passage.id);
    if (known) return known;
    const evidence: Evidence = {
      id: `E${this.byId.size + 1}`,
      passageId: passage.id,
      source: passage.source,
      startLine: passage.startLine,
      endLine: passage.endLine,
      heading: passage.heading,
      text: passage.text,
      version: passage.version,
    };
    this.byId.set(evidence.id, evidence);
    this.byPassage.set(passage.id, evidence);
    this.onRecord?.(evidence);
    return evidence;
  }

  /**
   * Records a grounding chunk of built-in grounding (a web page, a data-store document) as
   * evidence: source and uri = its uri, heading and title = its title, text when it has any.
   * The same chunk (uri, title, text) twice in one turn keeps its first id.
   */
  recordChunk(chunk: GroundingChunk): Evidence {
    const key = `chunk:${createHash('sha256')
      .update(JSON.stringify([chunk.uri, chunk.title, chunk.text ?? '']))
      .digest('hex')
      .slice(0, 16)}`;
    const known = this.byPassage.get(key);
    if (known) return known;
    const evidence: Evidence = {
      id: `E${this.byId.size + 1}`,
      passageId: key,
      source: chunk.uri,
      startLine: 0,
      endLine: 0,
      heading: chunk.title,
      text: chunk.text ?? '',
      version: '',
      uri: chunk.uri,
      title: chunk.title,
    };
    this.byId.set(evidence.id, evidence);
    this.byPassage.set(key, evidence);
    this.onRecord?.(evidence);
    return evidence;
  }

  get(id: string): Evidence | undefined {
    return this.byId.get(id);
  }

  all(): readonly Evidence[] {
    return [...this.byId.values()];
  }
}

export class EvidenceLedger {
  private readonly open = new Map<string, InvocationEvidence>();

  constructor(private readonly onRecord?: EvidenceListener) {}

  begin(invocationId: string): InvocationEvidence {
    if (this.open.has(invocationId)) throw new Error(`invocation ${invocationId} is already open`);
    const evidence = new InvocationEvidence(invocationId, this.onRecord);
    this.open.set(invocationId, evidence);
    return evidence;
  }

  lookup(invocationId: string): InvocationEvidence | undefined {
    return this.open.get(invocationId);
  }

  release(invocationId: string): void {
    this.open.delete(invocationId);
  }

  /** Open invocations (for the boundedness test and diagnostics). */
  get size(): number {
    return this.open.size;
  }
}
