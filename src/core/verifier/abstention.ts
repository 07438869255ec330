// Explicit abstentions: the answer the product gives when the documents do not answer.

export const NOT_FOUND_PREFIX = 'NOT_FOUND:';
export const NOT_FOUND_UNSUPPORTED = 'NOT_FOUND: the documents I found do not support an answer.';

/** True when the text is an abstention (starts with `NOT_FOUND:`, leading blanks allowed). */
export function isAbstention(text: string): boolean {
  return text.trimStart().startsWith(NOT_FOUND_PREFIX);
}
/** Built-in grounding: nothing the provider's search returned backs a sentence. */
export const NOT_FOUND_UNGROUNDED = 'NOT_FOUND: the search results do not support an answer.';
