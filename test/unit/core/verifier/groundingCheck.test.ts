// The grounding check of the second route, on metadata built in the test (no server): how
// segments are placed (by text, whitespace-tolerant, repeated text by byte offset), when a
// sentence counts as covered, exemptions, and the ledger's ids for grounding chunks.

import { strict as assert } from 'node:assert';
import { EvidenceLedger } from '../../../../src/core/agent/ledger';
import { readGroundingMetadata } from '../../../../src/core/models/groundingMetadata';
import type { GroundingChunk, GroundingMetadata, GroundingSupport } from '../../../../src/domain/types';
import { verifyGrounded } from '../../../../src/core/verifier/groundingCheck';

function metadataOf(
  chunks: GroundingChunk[],
  supports: Array<Partial<GroundingSupport> & { chunkIndices: number[] }>,
): GroundingMetadata {
  return { chunks, supports: supports.map((s) => ({ confidenceScores: [], ...s })), queries: [] };
}

async function check(text: string, metadata: GroundingMetadata | undefined) {
  const ledger = new EvidenceLedger();
  const evidence = ledger.begin('inv');
  const ids = (metadata?.chunks ?? []).map((c) => evidence.recordChunk(c).id);
  const result = await verifyGrounded(text, metadata, ids, evidence);
  return { result, ids, evidence };
}

const A = { uri: 'https://a.example/1', title: 'A' };
const B = { uri: 'https://b.example/2', title: 'B' };

describe('grounding check (built-in grounding)', () => {
  it('matches a segment whose whitespace differs from the answer (a line break in the answer)', async () => {
    const { result } = await check(
      'Lunch is served\nfrom noon.',
      metadataOf([A], [{ text: 'Lunch is served from noon.', chunkIndices: [0] }]),
    );
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.citations]),
      [['kept', ['E1']]],
    );
  });

  it('keeps a sentence two segments cover together, citing both chunks; drops one a segment only partly covers', async () => {
    const text = 'Desks are booked online and released at ten. Lockers cost nothing and come with a key.';
    const { result } = await check(
      text,
      metadataOf(
        [A, B],
        [
          { text: 'Desks are booked online', chunkIndices: [0] },
          { text: 'and released at ten.', chunkIndices: [1] },
          { text: 'Lockers cost nothing', chunkIndices: [1] },
        ],
      ),
    );
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.citations, s.tier]),
      [
        ['kept', ['E1', 'E2'], 'grounding'],
        ['dropped', ['E2'], 'grounding'],
      ],
    );
    assert.equal(result.sentences[0].support, 1);
    assert.ok(result.sentences[1].support > 0 && result.sentences[1].support < 1);
  });

  it('exempts an uncovered sentence that states nothing', async () => {
    const { result } = await check(
      'Here is what I found. Parking is free on weekends.',
      metadataOf([A], [{ text: 'Parking is free on weekends.', chunkIndices: [0] }]),
    );
    assert.deepEqual(
      result.sentences.map((s) => s.verdict),
      ['exempt', 'kept'],
    );
  });

  it('never trusts a segment text that is not in the answer', async () => {
    const { result } = await check(
      'Parking is free on weekends.',
      metadataOf([A], [{ text: 'Parking is free every day.', chunkIndices: [0], startIndex: 0, endIndex: 28 }]),
    );
    assert.equal(result.abstained, true);
    assert.equal(result.supports[0].ignored, 'the segment text is not in the answer');
  });

  it('gives identical chunks one evidence id, and both chunk indices resolve to it', async () => {
    const { result, ids } = await check(
      'Parking is free.',
      metadataOf([A, { ...A }, B], [{ text: 'Parking is free.', chunkIndices: [1] }]),
    );
    assert.deepEqual(ids, ['E1', 'E1', 'E2']);
    assert.deepEqual(result.sentences[0].citations, ['E1']);
  });

  it('records the web chunk as evidence with uri and title, and data-store text when present', () => {
    const evidence = new EvidenceLedger().begin('x');
    const web = evidence.recordChunk(A);
    const doc = evidence.recordChunk({ uri: 'gs://b/doc.md', title: 'Doc', text: 'Some text.' });
    assert.deepEqual(
      [web.id, web.uri, web.source, web.title, web.heading, web.text],
      ['E1', A.uri, A.uri, 'A', 'A', ''],
    );
    assert.deepEqual([doc.id, doc.text], ['E2', 'Some text.']);
  });
});

describe('reading groundingMetadata', () => {
  it('keeps chunk positions, reads web and retrieved context, and skips malformed pieces without throwing', () => {
    const metadata = readGroundingMetadata({
      groundingChunks: [
        { web: { uri: 'https://a', title: 'A' } },
        'junk',
        { retrievedContext: { uri: 'gs://d', title: 'D', text: 'T' } },
      ],
      groundingSupports: [
        {
          segment: { startIndex: 0, endIndex: 3, text: 'abc' },
          groundingChunkIndices: [0, 'x', 2.5, 2],
          confidenceScores: [0.9, 'high'],
        },
        null,
      ],
      webSearchQueries: ['q', 3],
      searchEntryPoint: { renderedContent: '<div>s</div>' },
    });
    assert.ok(metadata);
    assert.deepEqual(metadata.chunks, [
      { uri: 'https://a', title: 'A' },
      { uri: '', title: '' },
      { uri: 'gs://d', title: 'D', text: 'T' },
    ]);
    assert.deepEqual(metadata.supports[0], {
      text: 'abc',
      startIndex: 0,
      endIndex: 3,
      chunkIndices: [0, 2.5, 2],
      confidenceScores: [0.9],
    });
    assert.deepEqual(metadata.supports[1], { chunkIndices: [], confidenceScores: [] });
    assert.deepEqual(metadata.queries, ['q']);
    assert.equal(metadata.searchSuggestions, '<div>s</div>');
    assert.equal(readGroundingMetadata('nope'), undefined);
  });

  it('a fractional chunk index backs nothing', async () => {
    const { result } = await check(
      'Parking is free.',
      metadataOf([A, B], [{ text: 'Parking is free.', chunkIndices: [0.5] }]),
    );
    assert.equal(result.sentences[0].verdict, 'dropped');
  });
});
