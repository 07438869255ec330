// A chip: a small inline button standing for a source (an evidence id of this turn, a closest
// passage of a not-found answer; other kinds such as web sources fit the same shape). It is
// one item of its answer's roving group (see roving.ts), opens on Enter, Space or click, and may
// carry a preview shown on hover or keyboard focus (see evidencePreview.ts).

import type { Evidence } from '../domain/types';
import { describeLines } from '../domain/answerLayout';
import { activate, element } from './dom';
import { EvidencePreviews } from './evidencePreview';
import { renderPassageText } from './passageText';
import { splitSource } from './sourceName';

/** Selector of every chip (web-source chips of built-in grounding too), for the roving group of an answer. */
export const CHIP_SELECTOR = '.chip, .web-source';

export interface ChipSpec {
  /** `data-testid` of the chip (e.g. "citation"). */
  testId: string;
  /** Kind of chip, a CSS class `chip-<variant>` (e.g. "citation", "closest", "web"). */
  variant: string;
  /** The visible label: text, or parts (e.g. file name, heading, lines) styled apart. */
  label: string | (HTMLElement | string)[];
  /** What a screen reader says for the chip. */
  ariaLabel: string;
  /** Extra attributes (e.g. `data-evidence-id`). */
  attrs?: Record<string, string>;
  /** A preview shown on hover or keyboard focus (role tooltip). */
  preview?: HTMLElement;
  open(): void;
}

let previewCount = 0;

export function createChip(doc: Document, spec: ChipSpec): HTMLElement {
  const chip = element(doc, 'span', {
    class: `chip chip-${spec.variant}${spec.variant === 'citation' ? ' citation' : ''}`,
    role: 'button',
    tabindex: '-1',
    'data-testid': spec.testId,
    'aria-label': spec.ariaLabel,
    ...spec.attrs,
  });
  const label = element(doc, 'span', { class: 'chip-label' });
  if (typeof spec.label === 'string') label.textContent = spec.label;
  else label.append(...spec.label);
  chip.append(label);
  let dismiss = (): void => undefined;
  if (spec.preview) {
    const id = `preview-${++previewCount}`;
    spec.preview.id = id;
    chip.setAttribute('aria-describedby', id);
    chip.append(spec.preview);
    const handle = EvidencePreviews.of(doc).attach(chip, spec.preview);
    dismiss = () => handle.dismiss();
  }
  activate(chip, () => {
    dismiss();
    spec.open();
  });
  return chip;
}

/** The preview of a passage: file name, folder and lines, its heading, its text formatted. */
export function passagePreview(doc: Document, evidence: Evidence): HTMLElement {
  const preview = element(doc, 'span', {
    class: 'evidence-preview',
    role: 'tooltip',
    'data-testid': 'evidence-preview',
  });
  const { name, folder } = splitSource(evidence.source);
  const where = element(
    doc,
    'span',
    { class: 'preview-source', 'data-testid': 'preview-source', title: evidence.source },
    `${evidence.source} · ${describeLines(evidence)}`,
  );
  where.dataset.fileName = name;
  where.dataset.folder = folder;
  const heading = element(
    doc,
    'span',
    { class: 'preview-heading', 'data-testid': 'preview-heading' },
    evidence.heading,
  );
  const text = element(doc, 'span', { class: 'preview-text', 'data-testid': 'preview-text' });
  text.append(renderPassageText(doc, evidence.text));
  preview.append(where, heading, text);
  return preview;
}

/** A chip for an evidence id of this turn, previewing its passage. */
export function citationChip(doc: Document, evidence: Evidence, open: () => void): HTMLElement {
  return createChip(doc, {
    testId: 'citation',
    variant: 'citation',
    label: evidence.id,
    ariaLabel: `Evidence ${evidence.id}: ${splitSource(evidence.source).name}, ${describeLines(evidence)}`,
    attrs: { 'data-evidence-id': evidence.id },
    preview: passagePreview(doc, evidence),
    open,
  });
}
