// The engine answering from a shared index weighs words as the local index does: the verifier's
// term weights come from the store's stem table (read for the question, the found passages and
// the answer), not from every passage's text. Real pg client against a PGlite server.

import { strict as assert } from 'node:assert';
import { dropStoreTables, startTestPostgres, TEST_SERVERS, type TestPostgres } from '../../support/pgliteServer';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../support/engineFixture';
import { ScriptedModel, say, search } from '../../support/scriptedModel';
import { analyse } from '../../../src/core/text/terms';

// More documents than the turn tests' two, so that "plans" is common and "pro rata" is rare.
const DOCS: Record<string, string> = {
  ...REFUND_AND_TRAVEL_DOCS,
  'plans/monthly.md': '# Monthly plans\n\nMonthly plans renew every month. Monthly plans can be cancelled online.\n',
  'plans/team.md': '# Team plans\n\nTeam plans are billed per seat. Team plans may add seats at any time.\n',
  'plans/trial.md': '# Trial plans\n\nTrial plans last 14 days and convert to monthly plans.\n',
};

// Partly backed sentences: their support depends on how much each missing word weighs.
const TURNS: [string, string, string][] = [
  [
    'Annual refunds?',
    'annual plans refundable',
    'Annual plans are refundable pro rata within 90 days, and team plans get free lunches on Fridays [E1].',
  ],
  ['Trial length?', 'trial plans last', 'Trial plans last 14 days and include a dedicated account manager [E1].'],
  ['Team billing?', 'team plans billed', 'Team plans are billed per seat each quarter in advance by invoice [E1].'],
];

for (const kind of TEST_SERVERS) {
  describe(`engine on a shared index: the same verdicts and support as on the local index (${kind === 'pglite' ? 'PGlite server on 127.0.0.1' : 'a real PostgreSQL'})`, function () {
    this.timeout(120_000);
    let server: TestPostgres;
    let local: EngineFixture;
    let shared: EngineFixture;

    before(async () => {
      server = await startTestPostgres({ kind });
      await dropStoreTables(server.url);
      local = await indexedEngine(DOCS);
      shared = await indexedEngine(DOCS, { store: { connectionString: server.url } });
    });

    after(async () => {
      await shared?.engine.close();
      await shared?.dispose();
      await local?.dispose();
      await server?.stop();
    });

    it('keeps and drops the same sentences with the same support, and holds the same weights for the words it met', async () => {
      const supports = new Set<number>();
      for (const [question, query, sentence] of TURNS) {
        const fromShared = await shared.engine.ask(question, {
          model: new ScriptedModel([search(query), say(sentence)]),
        });
        const fromLocal = await local.engine.ask(question, {
          model: new ScriptedModel([search(query), say(sentence)]),
        });
        assert.deepEqual(
          fromShared.evidence.map((e) => [e.id, e.source, e.startLine, e.version]),
          fromLocal.evidence.map((e) => [e.id, e.source, e.startLine, e.version]),
          question,
        );
        assert.deepEqual(
          fromShared.sentences.map((s) => [s.verdict, s.support]),
          fromLocal.sentences.map((s) => [s.verdict, s.support]),
          `${question}: same verdicts and support`,
        );
        for (const s of fromLocal.sentences) if (s.support !== undefined) supports.add(s.support);
        const met = [question, query, sentence, ...fromLocal.evidence.map((e) => `${e.heading}\n${e.text}`)];
        for (const stem of new Set(met.flatMap((t) => analyse(t, { stemming: true }).terms.map((x) => x.stem)))) {
          assert.equal(shared.engine.termStats().idf(stem), local.engine.termStats().idf(stem), `weight of "${stem}"`);
        }
      }
      assert.ok(
        [...supports].some((x) => x > 0 && x < 1),
        `some sentence is partly backed, so weights matter (${[...supports].join(', ')})`,
      );
    });

    it('searches with a whole number of passages whatever top k it was given (2.5 once failed in SQL, 0.1 found nothing)', async () => {
      for (const topK of [2.5, 0.1]) {
        const fixture = await indexedEngine(DOCS, { store: { connectionString: server.url }, topK });
        try {
          const result = await fixture.engine.ask('Annual refunds?', {
            model: new ScriptedModel([
              search('annual plans refundable'),
              say('Annual plans are refundable pro rata within 90 days [E1].'),
            ]),
          });
          assert.equal(result.evidence.length, topK === 2.5 ? 3 : 1, `top k ${topK}`);
          assert.equal(result.abstained, false);
        } finally {
          await fixture.engine.close();
          await fixture.dispose();
        }
      }
    });
  });
}
