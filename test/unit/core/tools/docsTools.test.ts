// The agents' tools on a real lexical index of two small policies: search records passages under
// ids in the conversation's ledger; check keeps what the passages back and drops the rest, whether
// the sentence cites an id of this conversation, an id of another one, an unknown id or none.

import { strict as assert } from 'node:assert';
import { DocsTools, type SearchDocsResult } from '../../../../src/core/tools/docsTools';
import { ToolInputError } from '../../../../src/core/tools/toolInput';
import { ToolLedgers } from '../../../../src/core/tools/toolLedger';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../../support/engineFixture';

const ANNUAL = 'Annual plans are refundable pro rata within 90 days of purchase.';

describe('DocsTools (search and check for agents, on a real lexical index)', () => {
  let fixture: EngineFixture;
  let tools: DocsTools;

  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
  });
  after(() => fixture.dispose());
  beforeEach(() => {
    tools = new DocsTools(async () => fixture.engine, { topK: () => 6 });
  });

  const idOf = (result: SearchDocsResult, text: string): string => {
    const passage = result.passages.find((p) => p.text.includes(text));
    assert.ok(passage, `no passage holding "${text}" in ${JSON.stringify(result.passages)}`);
    return passage.id;
  };

  it('search returns passages under ids E1… with source, lines, heading, text and document version', async () => {
    const result = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    assert.ok(result.passages.length >= 1);
    assert.deepEqual(
      result.passages.map((p) => p.id),
      result.passages.map((_, i) => `E${i + 1}`),
    );
    const annual = result.passages.find((p) => p.text === ANNUAL);
    assert.ok(annual);
    assert.deepEqual(Object.keys(annual).sort(), [
      'endLine',
      'heading',
      'id',
      'source',
      'startLine',
      'text',
      'version',
    ]);
    assert.equal(annual.source, 'refunds.md');
    assert.equal(annual.heading, 'Refunds > Annual plans');
    assert.equal(annual.startLine, 5);
    assert.equal(annual.endLine, 5);
    assert.match(annual.version, /^[0-9a-f]{16}$/);
  });

  it('a second search of the same conversation keeps the ids it gave and numbers new passages on', async () => {
    const first = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable', k: 1 });
    const second = await tools.search('chat-1', 'search_docs', { query: 'economy class flights' });
    const annualAgain = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable', k: 1 });
    assert.equal(annualAgain.passages[0].id, first.passages[0].id);
    assert.ok(second.passages.every((p) => p.id !== first.passages[0].id || p.text === first.passages[0].text));
    assert.ok(second.passages.some((p) => p.id === 'E2'));
  });

  it('keeps a sentence citing the id that backs it (route cited, with that passage)', async () => {
    const search = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    const id = idOf(search, ANNUAL);
    const { result } = await tools.check('chat-1', 'check_answer', {
      answer: `Annual plans are refundable pro rata within 90 days of purchase [${id}].`,
    });
    assert.equal(result.sentences.length, 1);
    assert.equal(result.sentences[0].verdict, 'kept');
    assert.equal(result.sentences[0].route, 'cited');
    assert.equal(result.sentences[0].reason, 'supported');
    assert.deepEqual(result.sentences[0].evidence, [{ id, source: 'refunds.md', startLine: 5, endLine: 5 }]);
    assert.equal(result.coverage, 1);
  });

  it('drops a sentence citing an id that only another conversation was given', async () => {
    const other = await tools.search('chat-A', 'search_docs', { query: 'refunds annual monthly plans economy' });
    assert.ok(other.passages.length >= 3, 'the other conversation needs at least three ids');
    await tools.search('chat-B', 'search_docs', { query: 'economy class flights', k: 1 });
    const { result } = await tools.check('chat-B', 'check_answer', { answer: `${ANNUAL.slice(0, -1)} [E3].` });
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].route, 'cited');
    assert.match(result.sentences[0].reason, /^unknown-id: E3 was not retrieved/);
    assert.equal(result.coverage, 0);
  });

  it('drops a sentence citing an id no search returned, and one citing an id before any search', async () => {
    await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    const unknown = await tools.check('chat-1', 'check_answer', { answer: `${ANNUAL.slice(0, -1)} [E99].` });
    assert.equal(unknown.result.sentences[0].verdict, 'dropped');
    assert.match(unknown.result.sentences[0].reason, /^unknown-id: E99/);
    const unsearched = await tools.check('never-searched', 'check_answer', { answer: `${ANNUAL.slice(0, -1)} [E1].` });
    assert.equal(unsearched.result.sentences[0].verdict, 'dropped');
    assert.equal(unsearched.result.sentences[0].route, 'cited');
    assert.match(unsearched.result.sentences[0].reason, /^unknown-id: E1/);
  });

  it('does not rescue a real id that does not back its sentence (laundering) by searching for it', async () => {
    const search = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    const id = idOf(search, ANNUAL);
    const { result } = await tools.check('chat-1', 'check_answer', {
      answer: `Economy class is required for flights shorter than six hours [${id}].`,
    });
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].route, 'cited');
    assert.match(result.sentences[0].reason, /^low-support/);
  });

  it('checks a sentence without an id against passages retrieved for it: kept, with the passage and no id', async () => {
    const { result } = await tools.check('fresh', 'check_answer', {
      answer: 'Economy class is required for flights shorter than six hours.',
    });
    assert.equal(result.sentences[0].verdict, 'kept');
    assert.equal(result.sentences[0].route, 'retrieved');
    assert.deepEqual(result.sentences[0].evidence, [{ source: 'travel.md', startLine: 3, endLine: 3 }]);
  });

  it('drops a planted figure, with or without an id, naming what the passage says', async () => {
    const search = await tools.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    const id = idOf(search, ANNUAL);
    const { result } = await tools.check('chat-1', 'check_answer', {
      answer: `Annual plans are refundable pro rata within 45 days of purchase [${id}]. Annual plans are refundable pro rata within 45 days of purchase.`,
    });
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.route]),
      [
        ['dropped', 'cited'],
        ['dropped', 'retrieved'],
      ],
    );
    for (const s of result.sentences) assert.match(s.reason, /^value-mismatch: '45 days' — the passage says 90 days/);
    assert.deepEqual(result.sentences[1].evidence, [{ source: 'refunds.md', startLine: 5, endLine: 5 }]);
  });

  it('never pools passages: a sentence joining facts of two documents, without an id, is dropped', async () => {
    const { result } = await tools.check('fresh', 'check_answer', {
      answer:
        'Annual plans are refundable pro rata within 90 days and economy class is required for flights shorter than six hours.',
    });
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].route, 'retrieved');
  });

  it('exempts a sentence that states nothing (route none), and counts coverage over factual sentences only', async () => {
    const { result } = await tools.check('fresh', 'check_answer', {
      answer:
        'Here is what I found:\n\nEconomy class is required for flights shorter than six hours.\n\nAnnual plans are free forever.',
    });
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.route]),
      [
        ['exempt', 'none'],
        ['kept', 'retrieved'],
        ['dropped', 'retrieved'],
      ],
    );
    assert.equal(result.coverage, 0.5);
  });

  it('passes a NOT_FOUND answer as exempt: it claims nothing', async () => {
    const { result } = await tools.check('fresh', 'check_answer', {
      answer: 'NOT_FOUND: the documents do not mention parking.',
    });
    assert.deepEqual(
      result.sentences.map((s) => [s.text, s.verdict, s.route]),
      [['NOT_FOUND: the documents do not mention parking.', 'exempt', 'none']],
    );
  });

  it('searches with the question too for a sentence that cites no id, and only for those', async () => {
    const queries: string[] = [];
    const recording = new DocsTools(
      async () => ({
        searchPassages: (query: string, k: number, signal?: AbortSignal) => {
          queries.push(query);
          return fixture.engine.searchPassages(query, k, signal);
        },
        verifierFor: (texts: readonly string[]) => fixture.engine.verifierFor(texts),
      }),
      { topK: () => 6 },
    );
    await recording.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    queries.length = 0;
    const { result } = await recording.check('chat-1', 'check_answer', {
      answer:
        'Annual plans are refundable pro rata within 90 days of purchase [E1]. Economy class is required for flights shorter than six hours.',
      question: 'What do the refund and travel policies say?',
    });
    assert.deepEqual(queries, [
      'Economy class is required for flights shorter than six hours.',
      'What do the refund and travel policies say? Economy class is required for flights shorter than six hours.',
    ]);
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.route]),
      [
        ['kept', 'cited'],
        ['kept', 'retrieved'],
      ],
    );
  });

  it('refuses bad and oversized arguments with a message naming the argument', async () => {
    await assert.rejects(
      tools.search('c', 'search_docs', { query: '' }),
      (e: ToolInputError) => e.code === 'bad-argument' && /"query" is empty/.test(e.message),
    );
    await assert.rejects(
      tools.search('c', 'search_docs', { query: 'x', k: 0 }),
      (e: ToolInputError) => e.code === 'bad-argument' && /"k" must be a whole number from 1 to 50/.test(e.message),
    );
    await assert.rejects(
      tools.search('c', 'search_docs', { query: 'x', limit: 3 }),
      (e: ToolInputError) => e.code === 'bad-argument' && /no argument "limit"/.test(e.message),
    );
    await assert.rejects(
      tools.search('c', 'search_docs', 'refunds'),
      (e: ToolInputError) => e.code === 'bad-argument' && /object of arguments/.test(e.message),
    );
    await assert.rejects(
      tools.check('c', 'check_answer', { answer: 42 }),
      (e: ToolInputError) => e.code === 'bad-argument' && /"answer" as a string/.test(e.message),
    );
    const huge = 'Monthly plans are not refundable. '.repeat(32_000);
    await assert.rejects(
      tools.check('c', 'check_answer', { answer: huge }),
      (e: ToolInputError) => e.code === 'too-large' && /is 1,088,000 characters long; at most 50,000/.test(e.message),
    );
  });

  it('stops when cancelled: a search or check whose signal aborts rejects with AbortError and records nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      tools.search('cancelled', 'search_docs', { query: 'annual plans refundable' }, controller.signal),
      { name: 'AbortError' },
    );
    assert.equal(tools.ledgers.forCheck('cancelled'), undefined, 'a cancelled search opened no ledger');
    await assert.rejects(
      tools.check(
        'cancelled',
        'check_answer',
        { answer: 'Economy class is required for flights shorter than six hours.' },
        controller.signal,
      ),
      { name: 'AbortError' },
    );
  });

  it("frees a conversation's ledger after its idle time: its ids then fail the lookup", async () => {
    let now = 0;
    const ledgers = new ToolLedgers({ idleMs: 1000 }, () => now);
    const timed = new DocsTools(async () => fixture.engine, { topK: () => 6, ledgers });
    const search = await timed.search('chat-1', 'search_docs', { query: 'annual plans refundable' });
    const answer = `${ANNUAL.slice(0, -1)} [${idOf(search, ANNUAL)}].`;
    now = 900;
    assert.equal((await timed.check('chat-1', 'check_answer', { answer })).result.sentences[0].verdict, 'kept');
    now = 1800; // 900 ms after the last use: still held
    assert.equal(ledgers.size, 1);
    now = 2901;
    assert.equal(ledgers.size, 0);
    assert.equal((await timed.check('chat-1', 'check_answer', { answer })).result.sentences[0].verdict, 'dropped');
  });
});
