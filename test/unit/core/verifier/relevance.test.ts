// Issue 9, item 4: "Does this answer the question?" — the check itself, then inside a turn.

import * as assert from 'node:assert/strict';
import { checkRelevance, questionParts } from '../../../../src/core/verifier/relevance';
import { indexedEngine, type EngineFixture } from '../../../support/engineFixture';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';

describe('relevance check', () => {
  it('finds the parts of a multi-part question', () => {
    assert.deepEqual(questionParts('How many days of leave do I get, and who approves it?'), [
      'How many days of leave do I get',
      'who approves it',
    ]);
    assert.deepEqual(questionParts('Can I carry leave over? How much?').length, 2);
    assert.deepEqual(questionParts('Are travel and meals covered?'), ['Are travel and meals covered']);
  });

  it('calls "take stock" off-topic for the stock option vesting schedule (the issue example)', () => {
    const r = checkRelevance({
      question: 'What is the stock option vesting schedule for 18F employees?',
      kept: [
        {
          text: 'In fact, it is a good idea to take stock if the plan changes [E6].',
          heading: 'Project reviews > When to reassess',
        },
      ],
    });
    assert.equal(r.verdict, 'off-topic');
    assert.match(r.reason, /mention "stock" but not .*"vesting"/);
  });

  it('keeps a right answer (conservative): the words match through stems and the heading', () => {
    assert.equal(
      checkRelevance({
        question: 'Who approves travel?',
        kept: [{ text: 'Your supervisor approves it in advance [E1].', heading: 'Travel > Approval' }],
      }).verdict,
      'answers',
    );
    assert.equal(
      checkRelevance({
        question: 'How many hours of advanced sick leave can I request?',
        kept: [{ text: 'You can request up to 240 hours of advanced sick leave [E2].' }],
      }).verdict,
      'answers',
    );
  });

  it('wants the kind of value asked for: a number of hours, a duration', () => {
    const noNumber = checkRelevance({
      question: 'How many hours of advanced sick leave can I request?',
      kept: [{ text: 'Advanced sick leave requests go to your supervisor [E1].' }],
    });
    assert.equal(noNumber.verdict, 'off-topic');
    assert.match(noNumber.reason, /a number of hours/);
    const duration = checkRelevance({
      question: 'How long do refunds of annual plans take?',
      kept: [{ text: 'Refunds of annual plans are paid within 5 business days [E1].' }],
    });
    assert.equal(duration.verdict, 'answers');
  });

  it('reads "how quickly" as asking for a duration, and "when exactly did" as asking when', () => {
    const heading = 'Takedowns > Counter notices';
    const verdict = (question: string, text: string) => checkRelevance({ question, kept: [{ text, heading }] }).verdict;
    const quickly = 'How quickly does the takedown team act on a counter notice?';
    assert.equal(verdict(quickly, 'The takedown team reviews each counter notice with care [E1].'), 'off-topic');
    assert.equal(
      verdict(quickly, 'The takedown team acts on a counter notice within 10 business days [E1].'),
      'answers',
    );
    const when = 'When exactly did the takedown team start publishing counter notices?';
    assert.equal(verdict(when, 'The takedown team publishes counter notices in its repository [E1].'), 'off-topic');
    assert.equal(verdict(when, 'The takedown team started publishing counter notices in March 2019 [E1].'), 'answers');
  });

  it('never needs the hedges of casual speech in the answer ("honestly", "basically", "actually")', () => {
    const r = checkRelevance({
      question: 'Honestly, is the laptop basically mine to keep?',
      kept: [{ text: 'You return the laptop on your last day [E1].', heading: 'Equipment' }],
    });
    assert.equal(r.verdict, 'answers');
    // The reason of an off-topic part never names a hedge.
    const off = checkRelevance({
      question: 'Are contested nutrition claims actually banned?',
      kept: [{ text: 'Misleading health claims are not allowed [E1].', heading: 'Policy' }],
    });
    assert.equal(off.verdict, 'off-topic');
    assert.doesNotMatch(off.reason, /actually/);
  });

  it('wants how often for "how often": a frequency or a period, not any word of time', () => {
    const question = 'How often can we ask to add more seats to the school agreement?';
    const heading = 'School agreement > Additional seats';
    const verdict = (text: string) => checkRelevance({ question, kept: [{ text, heading }] }).verdict;
    // "before" says when, not how often (read as a loose "when" before).
    assert.equal(verdict('Seats must be added to the school agreement before the term starts [E1].'), 'off-topic');
    assert.equal(
      verdict('You may add seats to the school agreement no more frequently than quarterly [E1].'),
      'answers',
    );
    assert.equal(verdict('Seats can be added to the school agreement twice a year [E1].'), 'answers');
    assert.equal(verdict('Requests to add seats are reviewed on the first Monday of each month [E1].'), 'answers');
    assert.equal(verdict('Seat requests for the school agreement expire after 90 days [E1].'), 'answers');
    assert.match(
      checkRelevance({ question, kept: [{ text: 'Seats must be added before the term starts [E1].', heading }] })
        .reason,
      /how often/,
    );
  });

  it('reads a question word written without its apostrophe ("whats the max number") as the question it is', () => {
    const kept = [
      { text: 'The survey contract has a maximum number of responses [E1].', heading: 'Surveys > Contract' },
    ];
    assert.equal(checkRelevance({ question: "What's the max number of survey responses?", kept }).verdict, 'off-topic');
    assert.equal(checkRelevance({ question: 'whats the max number of survey responses?', kept }).verdict, 'off-topic');
    const stated = [
      { text: 'The survey contract allows at most 5,000 responses [E1].', heading: 'Surveys > Contract' },
    ];
    assert.equal(
      checkRelevance({ question: 'whats the max number of survey responses?', kept: stated }).verdict,
      'answers',
    );
  });

  it("reads the value's sentence against what is asked, not the asker's situation told before it", () => {
    const kept = [
      {
        text: 'You may report harassment to the equal employment office within 45 days of the incident [E1].',
        heading: 'Harassment > Reporting',
      },
    ];
    // Two of the seven focus words are met: enough for the words (a quarter), not for a third of them in the value's sentence.
    const question = 'A coworker keeps mocking my accent in meetings. How long do I have to report harassment?';
    assert.equal(checkRelevance({ question, kept }).verdict, 'answers');
    // Still about the question: a duration of something else does not answer.
    const other = [{ text: 'Meetings are planned within 45 days [E1].', heading: 'Meetings > Planning' }];
    assert.notEqual(checkRelevance({ question, kept: other }).verdict, 'answers');
  });

  it('counts what "how many" asks about with its first word or a word the lexicon takes for it, and names it as written', () => {
    // "how many vacation days": "25 days of paid annual leave" answers it ("annual leave" is the
    // lexicon's "vacation"), and a reason names "vacation days", not the stem "vacats".
    const days = checkRelevance({
      question: 'How many vacation days do I get?',
      kept: [
        {
          text: 'Full-time employees get 25 days of paid annual leave per calendar year [E2].',
          heading: 'Annual leave',
        },
      ],
    });
    assert.equal(days.verdict, 'answers', days.reason);
    const none = checkRelevance({
      question: 'How many vacation days do I get?',
      kept: [{ text: 'Vacation requests go to your manager first [E1].', heading: 'Annual leave' }],
    });
    assert.equal(none.verdict, 'off-topic');
    assert.match(none.reason, /a number of vacation days/);
    assert.doesNotMatch(none.reason, /vacats/);
    // A number of something else still does not count the asked thing.
    const other = checkRelevance({
      question: 'How many pay periods are in a leave year?',
      kept: [{ text: 'You can carry over up to 240 hours of annual leave [E1].', heading: 'Annual leave' }],
    });
    assert.notEqual(other.verdict, 'answers');
  });

  it('meets "vacation" in a passage about annual leave (the lexicon), and not in one about holidays', () => {
    assert.equal(
      checkRelevance({
        question: 'Do we get vacation?',
        kept: [{ text: 'Full-time employees get 25 days of paid annual leave per calendar year [E1].' }],
      }).verdict,
      'answers',
    );
    assert.equal(
      checkRelevance({
        question: 'Do we get vacation?',
        kept: [{ text: 'Public holidays that fall on a weekend move to the next working day [E1].' }],
      }).verdict,
      'off-topic',
    );
  });

  it('wants an amount of money for "what does it cost", stated by a sentence about the question', () => {
    const r = checkRelevance({
      question: 'What does the Globex subscription cost per year?',
      kept: [
        { text: 'The Globex subscription renews every year [E1].' },
        { text: 'Catering costs up to $25 a head [E2].' },
      ],
    });
    assert.equal(r.verdict, 'off-topic');
    assert.match(r.reason, /an amount of money/);
    const priced = checkRelevance({
      question: 'What does the Globex subscription cost per year?',
      kept: [{ text: 'The Globex subscription costs $1,200 per year [E1].' }],
    });
    assert.equal(priced.verdict, 'answers');
  });

  it('does not take the modal "may" nor "I am" for a date: a year asked needs a date', () => {
    const ask = (question: string, text: string) => checkRelevance({ question, kept: [{ text }] }).verdict;
    assert.equal(
      ask('What year did the terms change?', 'GitHub may modify these terms at any time [E1].'),
      'off-topic',
    );
    assert.equal(ask('What time does the office open?', 'I am told the office is open to visitors [E1].'), 'off-topic');
    assert.equal(ask('When are the terms reviewed?', 'GitHub may review the terms [E1].'), 'off-topic');
    // The month May, and a time of day, still are.
    assert.equal(ask('What month are the terms reviewed?', 'The terms are reviewed in May [E1].'), 'answers');
    assert.equal(ask('What date did the terms change?', 'The terms changed on May 3 [E1].'), 'answers');
    assert.equal(ask('What date did the terms change?', 'The terms changed on 3 May [E1].'), 'answers');
    assert.equal(ask('What time does the office open?', 'The office opens at 8 am [E1].'), 'answers');
    assert.equal(ask('What time does the office open?', 'The office opens at 8:30 [E1].'), 'answers');
  });

  it('says which part of a two-part question was not found', () => {
    const r = checkRelevance({
      question: 'How many vacation days do employees accrue, and who approves carry-over?',
      kept: [{ text: 'Employees accrue 20 vacation days per year [E1].', heading: 'Leave > Vacation' }],
    });
    assert.equal(r.verdict, 'partial');
    assert.match(r.reason, /"who approves carry-over"/);
  });

  it("does not take a name of the asker's situation, or a word opening the question after it, for a name the answer must give", () => {
    const kept = [
      {
        text: 'A conference abroad must be approved seven weeks before travel [E1].',
        heading: 'Travel > Conferences abroad',
      },
    ];
    const told = checkRelevance({
      question: 'I want to go to a conference in Berlin for work. How early must I start getting it approved?',
      kept,
    });
    assert.equal(told.verdict, 'answers', told.reason);
    const whats = checkRelevance({
      question: 'Our team is going to a conference abroad. Whats the approval lead time?',
      kept,
    });
    assert.equal(whats.verdict, 'answers', whats.reason);
    // The same name in the sentence that asks is still required.
    const asked = checkRelevance({
      question: 'How early must a conference in Berlin be approved?',
      kept,
    });
    assert.notEqual(asked.verdict, 'answers');
    assert.match(asked.reason, /"Berlin"/);
  });

  it('does not answer for a name the kept text never gives', () => {
    const r = checkRelevance({
      question: 'Does the refund policy apply in Quebec?',
      kept: [{ text: 'The refund policy applies to annual plans [E1].', heading: 'Refunds' }],
    });
    assert.equal(r.verdict, 'off-topic');
    assert.match(r.reason, /"Quebec"/);
  });

  it('reads a name in a statement before the question as who asks, not what is asked ("We are in Quebec. How …")', () => {
    const kept = [{ text: 'Refunds of annual plans are requested through the billing form [E1].', heading: 'Refunds' }];
    const context = checkRelevance({ question: 'We are a shop in Quebec. How do we request a refund?', kept });
    assert.equal(context.verdict, 'answers', context.reason);
    const asked = checkRelevance({ question: 'How do shops in Quebec request a refund?', kept });
    assert.equal(asked.verdict, 'off-topic');
    assert.match(asked.reason, /"Quebec"/);
  });

  it('reads the last sentence of a question as what it asks when it opens without a question word ("If they find nothing, about how long …?")', () => {
    const kept = [
      {
        text: 'If no issues are found, the scan and its review take about 2 weeks [E1].',
        heading: 'Security > Scanning before launch',
      },
    ];
    const told = checkRelevance({
      question:
        "Getting ready for OCISO's scan before our launch. If they find no issues, about how long does the scan take?",
      kept,
    });
    assert.equal(told.verdict, 'answers', told.reason);
    // The name in the sentence that asks is still required.
    const asked = checkRelevance({
      question: 'Getting ready for the scan. If they find no issues, about how long does the OCISO scan take?',
      kept,
    });
    assert.notEqual(asked.verdict, 'answers');
    assert.match(asked.reason, /"OCISO"/);
  });

  it('reads "how much time / notice" as asking a duration, not any number', () => {
    const ask = (question: string, text: string) =>
      checkRelevance({ question, kept: [{ text, heading: 'Council > Meetings' }] }).verdict;
    const time = 'Thinking about joining the council: how much meeting time is that?';
    assert.equal(ask(time, 'The council meets weekly for 60 minutes [E1].'), 'answers');
    assert.equal(ask(time, 'Council meetings are held in room 4 of the annex [E1].'), 'off-topic');
    const notice = 'How much notice must the council give before a meeting?';
    assert.equal(ask(notice, 'The council gives 2 weeks of notice before a meeting [E1].'), 'answers');
    assert.equal(ask(notice, 'The council posts notice of a meeting on page 3 of the wiki [E1].'), 'off-topic');
  });

  it('reads "what are the opening hours" as asking the times of day, not a count of hours', () => {
    const ask = (question: string, text: string) =>
      checkRelevance({ question, kept: [{ text, heading: 'Offices > Gym' }] }).verdict;
    const hours = 'What are the opening hours for the gym in the basement?';
    assert.equal(ask(hours, 'The gym in the basement is open from 6am to 7pm [E1].'), 'answers');
    assert.equal(ask(hours, 'There is a gym in the basement of the building [E1].'), 'off-topic');
    // "How many hours" is still a count.
    assert.equal(
      ask('How many hours is the gym in the basement open?', 'The gym in the basement is open 13 hours a day [E1].'),
      'answers',
    );
  });

  it('reads a frequency as the answer to "how often" ("quarterly", "each quarter", "three times a year")', () => {
    const ask = (text: string) =>
      checkRelevance({ question: 'How often can a school add seats to its plan?', kept: [{ text }] }).verdict;
    assert.equal(ask('A school can add seats to its plan quarterly [E1].'), 'answers');
    assert.equal(ask('A school can add seats to its plan each quarter [E1].'), 'answers');
    assert.equal(ask('A school can add seats to its plan three times a year [E1].'), 'answers');
    assert.equal(ask('A school can add seats to its plan through the order form [E1].'), 'off-topic');
  });

  it('meets an acronym of the question spelled out in lower case ("PR" / "pull request"), not a run of other initials', () => {
    const r = checkRelevance({
      question: 'How long does a PR to the handbook stay open before it is merged?',
      kept: [{ text: 'A pull request to the handbook stays open for 48 hours before it is merged [E1].' }],
    });
    assert.equal(r.verdict, 'answers', r.reason);
    const plan = checkRelevance({
      question: 'Which team owns the FOIA requests?',
      kept: [{ text: 'The privacy office owns every freedom of information act request [E1].' }],
    });
    assert.equal(plan.verdict, 'answers', plan.reason);
    const other = checkRelevance({
      question: 'How long does a PR to the handbook stay open before it is merged?',
      kept: [{ text: 'A draft to the handbook stays open for 48 hours before it is merged [E1].' }],
    });
    assert.notEqual(other.verdict, 'answers');
    assert.match(other.reason, /"PR"/);
  });

  it('reads a possessive name as the name ("my AO\'s approval" names the AO)', () => {
    const r = checkRelevance({
      question: "By what time does my AO's approval need to be in?",
      kept: [{ text: 'The AO must approve the trip by 3:30 PM Eastern [E1].', heading: 'Travel approval' }],
    });
    assert.equal(r.verdict, 'answers', r.reason);
  });
});

describe('relevance check inside a turn (real index, ledger and verifier; scripted model)', () => {
  let fixture: EngineFixture;
  let off: EngineFixture;
  const docs = {
    'refunds.md': '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n',
    'stock.md':
      '# Reviews\n\n## Taking stock\n\nIt is a good idea to take stock of the project when the plan changes.\n',
  };
  before(async () => {
    fixture = await indexedEngine(docs);
    off = await indexedEngine(docs, { relevanceCheck: false });
  });
  after(async () => {
    await fixture.dispose();
    await off.dispose();
  });

  it('abstains on a backed but off-topic answer, with the reason, the sentence shown as dropped, and who abstained', async () => {
    const model = () =>
      new ScriptedModel([
        search('stock'),
        say('It is a good idea to take stock of the project when the plan changes [E1].'),
      ]);
    const r = await fixture.engine.ask('What is the stock option vesting schedule for employees?', { model: model() });
    assert.equal(r.abstained, true);
    assert.equal(r.abstainedBy, 'relevance');
    assert.equal(r.relevance?.verdict, 'off-topic');
    assert.match(r.answer, /^NOT_FOUND: the documents found mention "stock" but not /);
    assert.equal(r.answer.split('\n').length, 1);
    assert.deepEqual(
      r.sentences.map((s) => [s.verdict, s.code]),
      [['dropped', 'off-topic']],
    );
    // Configurable: with the check off the verifier's verdict stands.
    const kept = await off.engine.ask('What is the stock option vesting schedule for employees?', { model: model() });
    assert.equal(kept.abstained, false);
    assert.equal(kept.relevance, undefined);
  });

  it('keeps a partly answered question and says which part was not found', async () => {
    const model = new ScriptedModel([
      search('annual plan refund'),
      say('Annual plans are refundable pro rata within 90 days of purchase [E1].'),
    ]);
    const r = await fixture.engine.ask('Are annual plans refundable, and who signs off on exceptions?', { model });
    assert.equal(r.abstained, false);
    assert.equal(r.relevance?.verdict, 'partial');
    assert.match(r.answer, /\n\nNOT_FOUND: part of the question is not answered: "who signs off on exceptions"/);
  });

  it('says who abstained: the model, or the verifier', async () => {
    const byModel = await fixture.engine.ask('Refunds for gift cards?', {
      model: new ScriptedModel([search('gift card'), say('NOT_FOUND: nothing about gift cards.')]),
    });
    assert.equal(byModel.abstainedBy, 'model');
    const byVerifier = await fixture.engine.ask('Refunds?', {
      model: new ScriptedModel([search('refund'), say('Gift cards are refundable for ten years [E1].')]),
    });
    assert.equal(byVerifier.abstainedBy, 'verifier');
    assert.equal(byVerifier.relevance, undefined);
  });
});

describe('relevance: a weekday answers "what day"', () => {
  const question = 'What day of the week does the team-wide jobs email go out?';
  const passage = 'Talent sends out a weekly team-wide email with all open roles. It goes out on Tuesdays.';
  const heading = 'Jobs > Weekly newsletter';

  it('reads a weekday written in the plural ("on Tuesdays") as the asked day', () => {
    for (const text of ['The jobs email goes out on **Tuesdays** [E1].', 'The jobs email goes out on Tuesday [E1].']) {
      const r = checkRelevance({ question, kept: [{ text, heading, passage }] });
      assert.equal(r.verdict, 'answers', `${text}: ${r.reason}`);
    }
  });

  it('still finds no day in "every week"', () => {
    const r = checkRelevance({
      question,
      kept: [{ text: 'The jobs email goes out every week [E1].', heading, passage }],
    });
    assert.notEqual(r.verdict, 'answers', r.reason);
  });
});
