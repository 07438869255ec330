// The ChatModel port on VS Code's language models (`vscode.lm`, e.g. Copilot): translates chat
// messages and the searchPolicies tool to the LM API (tool calls and LanguageModelToolResultPart),
// streams text, and turns "no model", "no consent" and quota errors into messages a user can act on.

import * as vscode from 'vscode';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, ToolCall } from '../core/types';
import { isRecord } from '../shared/guards';
import { HostError } from './errorCodes';
import { LanguageModelUnavailable } from './models';

const JUSTIFICATION =
  'Evident answers questions from the Markdown documents of this workspace and checks every citation.';

/** The language model Evident uses when `vscode-lm` answers: Copilot's first, else any. */
export async function selectLanguageModel(): Promise<vscode.LanguageModelChat | undefined> {
  const copilot = await vscode.lm.selectChatModels({ vendor: 'copilot' });
  if (copilot.length > 0) return copilot[0];
  return (await vscode.lm.selectChatModels())[0];
}

export async function countLanguageModels(): Promise<number> {
  try {
    return (await vscode.lm.selectChatModels()).length;
  } catch {
    return 0;
  }
}

function toLanguageModelMessages(system: string, messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  // The LM API has no system role: the instruction leads the first user message.
  let pendingSystem: string | undefined = system;
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'user':
        out.push(
          vscode.LanguageModelChatMessage.User(
            pendingSystem ? `${pendingSystem}\n\n---\n\n${message.text}` : message.text,
          ),
        );
        pendingSystem = undefined;
        break;
      case 'model': {
        const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
        if (message.text) parts.push(new vscode.LanguageModelTextPart(message.text));
        message.toolCalls.forEach((call, i) =>
          parts.push(new vscode.LanguageModelToolCallPart(callId(call, index, i), call.name, call.args)),
        );
        out.push(vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : ''));
        break;
      }
      case 'tool': {
        const calls = findCalls(messages, index);
        const parts = message.results.map(
          (result, i) =>
            new vscode.LanguageModelToolResultPart(result.id ?? calls[i] ?? `call-${index - 1}-${i}`, [
              new vscode.LanguageModelTextPart(JSON.stringify(result.response)),
            ]),
        );
        out.push(vscode.LanguageModelChatMessage.User(parts));
        break;
      }
    }
  });
  if (pendingSystem) out.unshift(vscode.LanguageModelChatMessage.User(pendingSystem));
  return out;
}

function callId(call: ToolCall, messageIndex: number, callIndex: number): string {
  return call.id ?? `call-${messageIndex}-${callIndex}`;
}

/** The ids of the tool calls that a tool message at `index` answers (the model message before it). */
function findCalls(messages: readonly ChatMessage[], index: number): string[] {
  const previous = messages[index - 1];
  return previous?.role === 'model' ? previous.toolCalls.map((c, i) => callId(c, index - 1, i)) : [];
}

function abortError(): Error {
  const error = new Error('The turn was cancelled.');
  error.name = 'AbortError';
  return error;
}

/** A message the user can act on for each way the LM API fails. */
export function describeLanguageModelError(error: unknown): Error {
  if (error instanceof vscode.CancellationError) return abortError();
  if (error instanceof vscode.LanguageModelError) {
    if (error.code === vscode.LanguageModelError.NoPermissions.name) {
      return new HostError(
        'Evident may not use this language model: accept the consent prompt, or allow Evident under "Manage Language Model Access" in the Accounts menu.',
        'language-model',
      );
    }
    if (error.code === vscode.LanguageModelError.NotFound.name) {
      return new LanguageModelUnavailable(
        'The selected VS Code language model is no longer available: pick another model or set "evident.model" to "extractive".',
      );
    }
    // A provider's quota error is not a code of the LM API: its message is all there is (the last resort).
    if (error.code === vscode.LanguageModelError.Blocked.name || /quota|rate.?limit|429/i.test(error.message)) {
      return new HostError(
        `The language model refused the request (quota or rate limit): try again later, or switch "evident.model". (${error.message})`,
        'language-model',
      );
    }
    return new HostError(`The language model failed: ${error.message}`, 'language-model');
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function createLanguageModelChatModel(model: vscode.LanguageModelChat): ChatModel {
  return {
    name: `vscode-lm:${model.vendor}/${model.family}`,
    async generate(request: ChatRequest): Promise<ChatResponse> {
      if (request.signal.aborted) throw abortError();
      const cancellation = new vscode.CancellationTokenSource();
      const onAbort = () => cancellation.cancel();
      request.signal.addEventListener('abort', onAbort);
      try {
        const response = await model.sendRequest(
          toLanguageModelMessages(request.system, request.messages),
          {
            justification: JUSTIFICATION,
            tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
          },
          cancellation.token,
        );
        let text = '';
        const toolCalls: ToolCall[] = [];
        for await (const part of response.stream) {
          if (request.signal.aborted) throw abortError();
          if (part instanceof vscode.LanguageModelTextPart) {
            text += part.value;
            request.onText?.(part.value);
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            toolCalls.push({ id: part.callId, name: part.name, args: isRecord(part.input) ? part.input : {} });
          }
        }
        if (request.signal.aborted) throw abortError();
        return { text, toolCalls };
      } catch (error) {
        throw request.signal.aborted ? abortError() : describeLanguageModelError(error);
      } finally {
        request.signal.removeEventListener('abort', onAbort);
        cancellation.dispose();
      }
    },
  };
}
