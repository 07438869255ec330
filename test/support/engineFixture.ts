// A lexical-only engine over a temporary docs folder, for tests of turns (tests only).

import { Engine, folderDocSource, type EngineOptions } from '../../src/core/engine';
import { removeDir, tempDir, writeDocs } from './workspace';

/** Leave for employees and for contractors, and travel: a follow-up ("and for contractors?") has a right answer. */
export const LEAVE_AND_TRAVEL_DOCS: Record<string, string> = {
  'leave.md': [
    '# Leave',
    '',
    '## Employees',
    '',
    'Employees get 25 days of annual leave per year.',
    '',
    '## Contractors',
    '',
    'Contractors get 10 days of annual leave per year.',
    '',
  ].join('\n'),
  'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
};

/** Two small policies most turn tests ask about. */
export const REFUND_AND_TRAVEL_DOCS: Record<string, string> = {
  'refunds.md': [
    '# Refunds',
    '',
    '## Annual plans',
    '',
    'Annual plans are refundable pro rata within 90 days of purchase.',
    '',
    '## Monthly plans',
    '',
    'Monthly plans are not refundable.',
  ].join('\n'),
  'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
};

export interface EngineFixture {
  engine: Engine;
  docs: string;
  indexDir: string;
  dispose(): Promise<void>;
}

/** Writes `files` to a temporary folder, opens an engine on it and indexes it. */
export async function indexedEngine(
  files: Record<string, string>,
  options: Partial<EngineOptions> = {},
): Promise<EngineFixture> {
  const docs = await tempDir();
  const indexDir = await tempDir('evident-index-');
  await writeDocs(docs, files);
  const engine = await Engine.open({ docs: folderDocSource(docs), indexDir, embedding: false, ...options });
  await engine.index();
  return {
    engine,
    docs,
    indexDir,
    dispose: async () => {
      await removeDir(docs);
      await removeDir(indexDir);
    },
  };
}
