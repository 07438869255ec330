// The local index moved: its contract to core/indexing/, its storage to core/store/local/ (see
// docs/architecture.md). This module keeps the old import path working for its importers.

export { INDEX_FORMAT_VERSION, termText, embeddingText, type IndexProgress, type IndexReport, type IndexRunOptions, type SavedIndex } from '../indexing/indexRun';
export { readBatches } from '../indexing/changeSet';
export { PassageIndex } from '../store/local/passageIndex';
