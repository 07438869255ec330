// Where an answer's facts come from, laid out to survive a narrow side bar: the Sources list (a
// chip, the file name, its folder, its lines) and the chips of a not-found answer's closest
// passages (file name, heading, lines). A file name wraps rather than lose its end (".md"); a line
// range is never cut; a folder path is shortened in its middle, keeping its first and last parts.

import type { Evidence, TurnResult } from '../domain/types';
import { describeLines, describeSource, isWebEvidence } from '../domain/answerLayout';
import { citationChip, createChip, passagePreview } from './chip';
import { element } from './dom';
import { splitFolder, splitSource } from './sourceName';
import { webSourceChip, type WebSourceActions } from './webSourceChip';

export interface SourceActions extends WebSourceActions {
  openEvidence(turnId: string, evidenceId: string): void;
}

/**
 * A folder, shortened in the middle when narrow: its start is cut with an ellipsis first, its last
 * part (the most telling) only when nothing else is left.
 */
export function sourceFolder(doc: Document, folder: string): HTMLElement {
  const box = element(doc, 'span', {
    class: 'source-folder',
    'data-testid': 'source-folder',
    title: folder ? `${folder}/` : '',
  });
  const { head, tail } = splitFolder(folder);
  if (head) box.append(element(doc, 'span', { class: 'folder-head', dir: 'ltr' }, head));
  if (tail) box.append(element(doc, 'span', { class: 'folder-tail', dir: 'ltr' }, tail));
  return box;
}

export function renderSources(
  doc: Document,
  turnId: string,
  result: TurnResult,
  actions: SourceActions,
): HTMLElement | undefined {
  const cited = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
  const evidence = result.evidence.filter((e) => cited.has(e.id));
  if (evidence.length === 0) return undefined;
  const sources = element(doc, 'div', { class: 'sources', 'data-testid': 'sources' });
  const titleId = `sources-${turnId}`;
  sources.append(element(doc, 'span', { class: 'sources-title', id: titleId }, 'Sources'));
  const list = element(doc, 'ul', { class: 'source-list', 'aria-labelledby': titleId });
  for (const e of evidence) {
    if (isWebEvidence(e)) {
      const row = element(doc, 'li', { class: 'source', 'data-testid': 'source', title: describeSource(e) });
      row.append(
        element(doc, 'span', { class: 'citation-label source-id' }, e.id),
        webSourceChip(doc, turnId, e, actions, true),
      );
      list.append(row);
      continue;
    }
    const { name, folder } = splitSource(e.source);
    const row = element(doc, 'li', {
      class: 'source',
      'data-testid': 'source',
      title: `${e.source}, ${describeLines(e)}${e.stale ? ' (changed since indexed)' : ''}`,
    });
    const where = element(doc, 'span', { class: 'source-where' });
    where.append(element(doc, 'span', { class: 'source-name', 'data-testid': 'source-name' }, name));
    if (folder) where.append(sourceFolder(doc, folder));
    where.append(
      element(
        doc,
        'span',
        { class: 'source-lines', 'data-testid': 'source-lines' },
        `${describeLines(e)}${e.stale ? ' · changed since indexed' : ''}`,
      ),
    );
    row.append(
      citationChip(doc, e, () => actions.openEvidence(turnId, e.id)),
      where,
    );
    list.append(row);
  }
  sources.append(list);
  return sources;
}

/** A closest passage of a not-found answer: file name, the heading it falls under, its lines. */
export function closestPassageChip(doc: Document, e: Evidence, open: () => void): HTMLElement {
  const { name } = splitSource(e.source);
  const leaf = e.heading.split(' > ').at(-1) ?? '';
  // Spaces between the parts keep the chip's text readable as text (copied, or read aloud).
  const parts = [
    element(doc, 'span', { class: 'chip-name' }, name),
    ...(leaf ? [' ', element(doc, 'span', { class: 'chip-heading' }, `› ${leaf}`)] : []),
    ' ',
    element(doc, 'span', { class: 'chip-lines' }, describeLines(e)),
  ];
  return createChip(doc, {
    testId: 'closest-passage',
    variant: 'closest',
    label: parts,
    ariaLabel: `Closest passage ${e.id}: ${name}, ${leaf ? `${leaf}, ` : ''}${describeLines(e)}`,
    attrs: { 'data-evidence-id': e.id, title: `${e.source} · ${describeLines(e)}${leaf ? ` · ${e.heading}` : ''}` },
    preview: passagePreview(doc, e),
    open,
  });
}
