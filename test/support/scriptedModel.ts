// The scripted backend (tests only): replays model turns, good and bad, through the ChatModel
// port, and records what the agent loop sent it. Bad turns: fake ids, laundering, uncited
// facts, injected links — whatever a test scripts.

import type { ChatModel, ChatRequest, ChatResponse, ToolCall } from '../../src/core/types';

export type ScriptedStep =
  { toolCalls: ToolCall[]; text?: string } | { text: string; chunks?: string[] } | { error: Error } | { hang: true };

export class ScriptedModel implements ChatModel {
  readonly name = 'scripted';
  readonly requests: ChatRequest[] = [];
  private steps: ScriptedStep[];

  constructor(steps: ScriptedStep[]) {
    this.steps = [...steps];
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const step = this.steps.shift();
    if (!step) throw new Error('scripted model: no step left');
    if ('error' in step) throw step.error;
    if ('hang' in step) {
      return new Promise((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    }
    if ('toolCalls' in step) return { text: step.text ?? '', toolCalls: step.toolCalls };
    for (const chunk of step.chunks ?? [step.text]) request.onText?.(chunk);
    return { text: step.text, toolCalls: [] };
  }
}

export const search = (query: string): ScriptedStep => ({ toolCalls: [{ name: 'searchPolicies', args: { query } }] });
export const say = (text: string, chunks?: string[]): ScriptedStep => ({ text, chunks });
