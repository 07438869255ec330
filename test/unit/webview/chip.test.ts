// Chips (src/webview/chip.ts): a citation chip names its evidence id, file and exact lines for a
// screen reader, previews its passage (source, lines, heading, text as text), and opens on
// click, Enter or Space.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { citationChip, createChip, passagePreview } from '../../../src/webview/chip';
import { evidence } from '../../support/turnBuilder';

describe('chips', () => {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  const doc = dom.window.document;

  it('a citation chip names its id, file and exact lines, and opens on click, Enter and Space', () => {
    let opened = 0;
    const chip = citationChip(
      doc,
      evidence('E2', { source: 'policies/leave.md', startLine: 10, endLine: 14 }),
      () => opened++,
    );
    doc.body.append(chip);
    assert.equal(chip.getAttribute('aria-label'), 'Evidence E2: leave.md, lines 10–14');
    assert.equal(chip.getAttribute('role'), 'button');
    assert.equal(chip.getAttribute('data-evidence-id'), 'E2');
    assert.equal(chip.querySelector('.chip-label')?.textContent, 'E2');
    assert.ok(chip.classList.contains('citation'));
    chip.click();
    chip.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    chip.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    assert.equal(opened, 3);
    const preview = chip.querySelector('[role="tooltip"]');
    assert.ok(preview);
    assert.equal(chip.getAttribute('aria-describedby'), preview.id);
  });

  it('a single-line passage says "line N"', () => {
    const chip = citationChip(doc, evidence('E1', { source: 'leave.md', startLine: 3, endLine: 3 }), () => undefined);
    assert.equal(chip.getAttribute('aria-label'), 'Evidence E1: leave.md, line 3');
  });

  it('the preview shows the full source with its lines, the heading, and the text as text', () => {
    const preview = passagePreview(
      doc,
      evidence('E1', {
        source: 'pages/benefits/leave.md',
        startLine: 4,
        endLine: 9,
        heading: 'Leave > Annual',
        text: 'Leave is <b>25</b> days.',
      }),
    );
    const where = preview.querySelector('[data-testid="preview-source"]') as HTMLElement;
    assert.equal(where.textContent, 'pages/benefits/leave.md · lines 4–9');
    assert.equal(where.dataset.fileName, 'leave.md');
    assert.equal(where.dataset.folder, 'pages/benefits');
    assert.equal(preview.querySelector('[data-testid="preview-heading"]')?.textContent, 'Leave > Annual');
    assert.equal(preview.querySelector('[data-testid="preview-text"]')?.textContent, 'Leave is <b>25</b> days.');
    assert.equal(preview.querySelector('b'), null);
  });

  it('a chip with a label in parts keeps them as given, with no preview unless given', () => {
    const part = doc.createElement('span');
    part.textContent = 'leave.md';
    const chip = createChip(doc, {
      testId: 'closest-passage',
      variant: 'closest',
      label: [part, ' · lines 1–2'],
      ariaLabel: 'Closest passage',
      open: () => undefined,
    });
    assert.equal(chip.querySelector('.chip-label')?.textContent, 'leave.md · lines 1–2');
    assert.ok(chip.classList.contains('chip-closest'));
    assert.equal(chip.getAttribute('aria-describedby'), null);
    assert.equal(chip.getAttribute('tabindex'), '-1');
  });
});
