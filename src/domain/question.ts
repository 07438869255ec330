// The longest question a turn accepts, defined once: the chat input's limit and the core's
// check (src/core/agent/question.ts) for the CLI, the chat and @evident alike.

/** Longest question a turn accepts (characters). */
export const MAX_QUESTION_LENGTH = 4000;
