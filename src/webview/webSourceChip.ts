// The web-source variant of a citation chip (built-in grounding): the chip shows the site
// (domain) with a globe, its preview the page title, URL and — for data-store documents — the
// text found; a click or Enter asks the host to open the page (the host opens it through
// VS Code's external-link confirmation). All provider text goes in as textContent.

import type { Evidence } from '../domain/types';
import { webDomain } from '../domain/answerLayout';
import { EvidencePreviews } from './evidencePreview';

export interface WebSourceActions {
  openEvidence(turnId: string, evidenceId: string): void;
}

let webPreviewCount = 0;

function span(doc: Document, attrs: Record<string, string>, text?: string): HTMLSpanElement {
  const el = doc.createElement('span');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A focusable chip for a web source of this turn; `withTitle` adds the page title (Sources list). */
export function webSourceChip(
  doc: Document,
  turnId: string,
  evidence: Evidence & { uri: string },
  actions: WebSourceActions,
  withTitle = false,
): HTMLElement {
  const previewId = `web-preview-${++webPreviewCount}`;
  const domain = webDomain(evidence);
  const title = evidence.title || domain;
  const chip = span(doc, {
    class: 'citation web-source',
    role: 'link',
    tabindex: '0',
    'data-testid': 'web-source',
    'data-evidence-id': evidence.id,
    'data-domain': domain,
    'aria-label': `Web source ${evidence.id}: ${title}, ${domain}`,
    'aria-describedby': previewId,
  });
  chip.append(span(doc, { class: 'codicon codicon-globe', 'aria-hidden': 'true' }));
  if (withTitle) chip.append(span(doc, { class: 'web-source-title', 'data-testid': 'web-source-title' }, title));
  chip.append(span(doc, { class: 'web-source-domain', 'data-testid': 'web-source-domain' }, domain));
  const preview = span(doc, {
    class: 'evidence-preview',
    role: 'tooltip',
    id: previewId,
    'data-testid': 'evidence-preview',
  });
  preview.append(
    span(doc, { class: 'preview-heading', 'data-testid': 'preview-heading' }, title),
    span(doc, { class: 'preview-source', 'data-testid': 'preview-source' }, evidence.uri),
  );
  if (evidence.text) preview.append(span(doc, { class: 'preview-text', 'data-testid': 'preview-text' }, evidence.text));
  chip.append(preview);
  const handle = EvidencePreviews.of(doc).attach(chip, preview);
  const open = (event: Event) => {
    event.preventDefault();
    handle.dismiss();
    actions.openEvidence(turnId, evidence.id);
  };
  chip.addEventListener('click', open);
  chip.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') open(event);
  });
  return chip;
}
