// The judge tier behind the SupportScorer port: the chat model asked through the ChatModel port
// (a scripted fake, and the real Gemini SDK against the local fake server).

import * as assert from 'node:assert/strict';
import { createGeminiModel } from '../../../../src/core/models/geminiModel';
import type { ChatModel, ChatRequest } from '../../../../src/core/types';
import { createJudgeScorer, verifyAnswer } from '../../../../src/core/verifier';
import { parseJudgeVerdict } from '../../../../src/core/verifier/judgeScorer';
import { FakeGeminiServer, lastUserText, textReply } from '../../../support/fakeGemini';
import { ledgerOf } from '../../../support/ledger';

const PASSAGE = 'Employees must submit travel expense receipts within thirty days of the trip to the finance team.';
const ledger = ledgerOf({ E1: PASSAGE, E2: 'Annual plans are refundable within 90 days of purchase.' });

describe('judge tier (ChatModel port)', () => {
  /** A scripted fake ChatModel: replies in order and records the requests. */
  function scriptedJudge(replies: string[]): ChatModel & { requests: ChatRequest[] } {
    const requests: ChatRequest[] = [];
    return {
      name: 'scripted-judge',
      requests,
      async generate(request) {
        requests.push(request);
        return { text: replies.shift() ?? '', toolCalls: [] };
      },
    };
  }

  it('parses only a clear YES or NO as the first word', () => {
    assert.equal(parseJudgeVerdict('YES'), true);
    assert.equal(parseJudgeVerdict('**No.** The passage says 90 days.'), false);
    assert.equal(parseJudgeVerdict('yes, it does'), true);
    assert.equal(parseJudgeVerdict('The answer is yes'), undefined);
    assert.equal(parseJudgeVerdict(''), undefined);
  });

  it('keeps a sentence the judge supports and drops one it rejects or answers unclearly (scripted fake model)', async () => {
    const model = scriptedJudge(['YES', 'NO', 'Maybe.']);
    const judge = createJudgeScorer(model);
    const r = await verifyAnswer(
      'Receipts go to finance [E1]. Staff get reimbursed by cheque [E1]. The finance team audits receipts yearly [E1].',
      ledger,
      { threshold: 0.99, escalation: judge },
    );
    assert.deepEqual(
      r.sentences.map((s) => [s.verdict, s.tier]),
      [
        ['kept', 'judge'],
        ['dropped', 'judge'],
        ['dropped', 'judge'],
      ],
    );
    assert.match(r.sentences[2].reason, /gave no clear verdict \("Maybe\."\)/);
    assert.equal(model.requests.length, 3);
    assert.match(model.requests[0].system, /exactly one word: YES or NO/);
    assert.ok(model.requests[0].messages[0].role === 'user' && model.requests[0].messages[0].text.includes(PASSAGE));
    assert.deepEqual(model.requests[0].tools, []);
  });

  it('asks Gemini through the real SDK (local fake server) and reads its verdict', async () => {
    const server = await FakeGeminiServer.start();
    try {
      server.enqueue(textReply('YES'), textReply('NO'));
      const judge = createJudgeScorer(
        createGeminiModel({ apiKey: 'test', baseUrl: server.baseUrl, stream: false, attempts: 1 }),
      );
      const r = await verifyAnswer('Receipts go to finance [E1]. Staff get reimbursed by cheque [E1].', ledger, {
        threshold: 0.99,
        escalation: judge,
      });
      assert.deepEqual(
        r.sentences.map((s) => [s.verdict, s.tier]),
        [
          ['kept', 'judge'],
          ['dropped', 'judge'],
        ],
      );
      assert.equal(server.requests.length, 2);
      const asked = lastUserText(server.requests[0].body) ?? '';
      assert.ok(asked.includes('SENTENCE:') && asked.includes('Receipts go to finance'), asked);
    } finally {
      await server.close();
    }
  });
});
