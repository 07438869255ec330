// Evident as a tool for other agents and for any text: the search and check tools with their
// ledgers (VS Code's language model tools, `evident mcp`), and the check of a text against the
// docs ("Check Text Against the Docs", `evident check`). What the engine bundle exports of it.

export {
  DocsTools,
  checkAnswerResult,
  type CheckAnswerResult,
  type CheckedEvidence,
  type SearchDocsResult,
  type ToolPassage,
} from './docsTools';
export {
  checkText,
  type CheckedSentence,
  type CheckIndex,
  type CheckProgress,
  type TextCheck,
  type TextVerifier,
} from './textCheck';
export { ToolInputError, readCheckInput, readSearchInput, type ToolInputErrorCode } from './toolInput';
export { ToolLedgers, DEFAULT_LEDGER_LIMITS } from './toolLedger';
export { checkHeadline, checkResultText, searchHeadline, searchResultText } from './toolText';
export * from './toolSchemas';
