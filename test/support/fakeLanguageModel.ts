// A fake VS Code LanguageModelChat that replays a written answer (tests and benchmarks only):
// it searches with the question through the adapter's tool calls, then answers with the text,
// evidence ids mapped to this turn's (answerReplay.ts). Drives the real adapter
// (src/host/lmChatModel.ts) with the fake `vscode` module of fakeVscode.ts.

import type { ChatModel } from '../../src/core/types';
import { nextMove, returnedPassages, type ReplayPlan, type ReplayReport } from './answerReplay';
import {
  LanguageModelChatMessage,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  useFakeVscode,
} from './fakeVscode';

useFakeVscode();
const { createLanguageModelChatModel } =
  require('../../src/host/lmChatModel') as typeof import('../../src/host/lmChatModel');

/** What the fake model saw in each request (for tests). */
export interface SeenRequest {
  messages: LanguageModelChatMessage[];
  tools: string[];
}

export function languageModelReplay(plan: ReplayPlan, report: ReplayReport, seen: SeenRequest[] = []): ChatModel {
  const chat = {
    vendor: 'fake',
    family: 'replay',
    async sendRequest(messages: LanguageModelChatMessage[], options: { tools?: Array<{ name: string }> }) {
      seen.push({ messages, tools: (options.tools ?? []).map((t) => t.name) });
      const parts = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
      const returned = parts
        .filter((p): p is LanguageModelToolResultPart => p instanceof LanguageModelToolResultPart)
        .flatMap((p) =>
          p.content
            .filter((c): c is LanguageModelTextPart => c instanceof LanguageModelTextPart)
            .flatMap((c) => returnedPassages(JSON.parse(c.value))),
        );
      const rounds = messages.filter(
        (m) =>
          m.role === 'assistant' &&
          Array.isArray(m.content) &&
          m.content.some((p) => p instanceof LanguageModelToolCallPart),
      ).length;
      const move = nextMove(plan, returned, rounds, report);
      const out =
        'answer' in move
          ? [new LanguageModelTextPart(move.answer)]
          : move.search.map(
              (query, i) => new LanguageModelToolCallPart(`call-${rounds}-${i}`, 'searchPolicies', { query }),
            );
      return {
        stream: (async function* () {
          for (const part of out) yield part;
        })(),
      };
    },
  };
  return createLanguageModelChatModel(chat as unknown as Parameters<typeof createLanguageModelChatModel>[0]);
}
