// The abstention rule, defined once: an answer that starts with `NOT_FOUND:` (leading blanks
// allowed) says the documents do not answer, and the rest of the line says what is missing.
// The verifier, the agent loop, the models, the chat view and the editor all read it from here.

export const NOT_FOUND_PREFIX = 'NOT_FOUND:';

/** The prefix with the blanks around it, for removing it from the line shown to a reader. */
export const ABSTENTION_PREFIX = new RegExp(`^\\s*${NOT_FOUND_PREFIX}\\s*`);

/** True when the text is an abstention (starts with `NOT_FOUND:`, leading blanks allowed). */
export function isAbstention(text: string): boolean {
  return ABSTENTION_PREFIX.test(text);
}

/** An abstention saying what is missing: `NOT_FOUND: <missing>`. */
export function notFound(missing: string): string {
  return `${NOT_FOUND_PREFIX} ${missing}`;
}
