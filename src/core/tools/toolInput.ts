// The tools' arguments as an agent sends them (JSON from a model: anything), checked before any
// work. A bad or oversized argument is a ToolInputError whose message tells the agent what to
// send instead; callers report it as the tool's error (never a crash, never a silent cut).

import { MAX_ANSWER_CHARS, MAX_QUERY_CHARS, MAX_QUESTION_LENGTH, MAX_SEARCH_K } from './toolSchemas';

export const TOOL_INPUT_ERRORS = ['bad-argument', 'too-large'] as const;
export type ToolInputErrorCode = (typeof TOOL_INPUT_ERRORS)[number];

export class ToolInputError extends Error {
  override name = 'ToolInputError';
  constructor(
    readonly code: ToolInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface SearchInput {
  query: string;
  k?: number;
}

export interface CheckInput {
  answer: string;
  question?: string;
}

const count = (n: number) => n.toLocaleString('en-US');

function argumentsObject(tool: string, args: unknown, known: readonly string[]): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ToolInputError(
      'bad-argument',
      `${tool} takes an object of arguments (${known.join(', ')}), not ${Array.isArray(args) ? 'an array' : typeof args}.`,
    );
  }
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new ToolInputError(
      'bad-argument',
      `${tool} has no argument ${unknown.map((k) => `"${k}"`).join(', ')}; its arguments are ${known.map((k) => `"${k}"`).join(', ')}.`,
    );
  }
  return args as Record<string, unknown>;
}

function text(
  tool: string,
  args: Record<string, unknown>,
  name: string,
  max: number,
  what: string,
  required: boolean,
): string | undefined {
  const value = args[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') {
    throw new ToolInputError(
      'bad-argument',
      `${tool} needs "${name}" as a string (${what})${value === undefined ? '' : `, not ${value === null ? 'null' : typeof value}`}.`,
    );
  }
  if (required && !value.trim()) throw new ToolInputError('bad-argument', `${tool}: "${name}" is empty; give ${what}.`);
  if (value.length > max) {
    throw new ToolInputError(
      'too-large',
      `${tool}: "${name}" is ${count(value.length)} characters long; at most ${count(max)} are accepted. ${LIMIT_ADVICE[name] ?? ''}`.trim(),
    );
  }
  return value;
}

const LIMIT_ADVICE: Record<string, string> = {
  query: 'Search for one topic at a time, in a few words.',
  answer: 'Check the answer in parts (a few paragraphs each), or use "evident check --file" for a whole document.',
  question: 'Give the question itself, not the text it is about.',
};

export function readSearchInput(tool: string, args: unknown): SearchInput {
  const object = argumentsObject(tool, args, ['query', 'k']);
  const query = text(tool, object, 'query', MAX_QUERY_CHARS, 'what to look for', true) as string;
  const k = object.k;
  if (k === undefined) return { query: query.trim() };
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > MAX_SEARCH_K) {
    throw new ToolInputError(
      'bad-argument',
      `${tool}: "k" must be a whole number from 1 to ${MAX_SEARCH_K} (got ${JSON.stringify(k)}).`,
    );
  }
  return { query: query.trim(), k };
}

export function readCheckInput(tool: string, args: unknown): CheckInput {
  const object = argumentsObject(tool, args, ['answer', 'question']);
  const answer = text(
    tool,
    object,
    'answer',
    MAX_ANSWER_CHARS,
    'the answer to check, with its evidence ids',
    true,
  ) as string;
  const question = text(tool, object, 'question', MAX_QUESTION_LENGTH, 'the question the answer replies to', false);
  return question?.trim() ? { answer, question: question.trim() } : { answer };
}
