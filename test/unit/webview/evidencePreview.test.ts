// The chip preview behaves like a native hover: it opens on hover and keyboard focus, closes after
// a grace delay when the pointer leaves (and stays open when the pointer moves into it), on blur,
// Escape, the click that opens the source, and scrolling (a keyboard-focused chip on screen keeps
// it, moved along); it sits beside the chip, never over it, below or else above.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { JSDOM } from 'jsdom';
import type { TurnActions } from '../../../src/webview/answerView';
import { renderResult } from '../../../src/webview/answerView';
import { PREVIEW_HIDE_DELAY_MS } from '../../../src/webview/evidencePreview';
import { doneTurn, evidence, sentences, turnResult } from '../../support/turnBuilder';

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

function setup() {
  const dom = new JSDOM(
    '<!doctype html><html><body><main class="transcript"></main><textarea></textarea></body></html>',
  );
  const { window } = dom;
  const doc = window.document;
  const opened: string[] = [];
  const actions: TurnActions = {
    openEvidence: (_turnId, id) => opened.push(id),
    openLink: () => undefined,
    copyAnswer: () => undefined,
    openInEditor: () => undefined,
    retry: () => undefined,
    regenerate: () => undefined,
    feedback: () => undefined,
    ask: () => undefined,
    runCommand: () => undefined,
  };
  const result = turnResult({
    sentences: sentences(
      { text: 'Leave is 25 days [E1].', citations: ['E1'] },
      { text: 'Carry-over is 5 days [E2].', citations: ['E2'] },
    ),
    evidence: [evidence('E1'), evidence('E2', { text: 'Up to 5 days carry over.' })],
  });
  const transcript = doc.querySelector('main') as HTMLElement;
  transcript.append(renderResult(doc, doneTurn('t1'), result, actions));
  const chips = Array.from(
    transcript.querySelectorAll<HTMLElement>('[data-testid="answer-body"] [data-testid="citation"]'),
  );
  const previewOf = (chip: HTMLElement) => chip.querySelector('[data-testid="evidence-preview"]') as HTMLElement;
  const fire = (target: EventTarget, type: string, init: MouseEventInit = {}) =>
    target.dispatchEvent(new window.MouseEvent(type, { bubbles: true, cancelable: true, ...init }));
  const key = (target: EventTarget, keyName: string) =>
    target.dispatchEvent(new window.KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true }));
  /** jsdom has no layout: give an element the box a browser would. */
  const layout = (el: HTMLElement, box: Box) => {
    el.getBoundingClientRect = () => {
      const { left, top, width, height } = box;
      return {
        x: left,
        y: top,
        left,
        top,
        width,
        height,
        right: left + width,
        bottom: top + height,
        toJSON: () => box,
      };
    };
  };
  return { window, doc, transcript, chips, previewOf, fire, key, layout, opened };
}

const pastGrace = () => sleep(PREVIEW_HIDE_DELAY_MS + 60);

describe('chip preview', () => {
  it('is closed until the pointer enters the chip', () => {
    const { chips, previewOf, fire } = setup();
    const preview = previewOf(chips[0]);
    assert.equal(preview.hidden, true);
    fire(chips[0], 'mouseenter', { bubbles: false });
    assert.equal(preview.hidden, false);
  });

  it('closes after a grace delay when the pointer leaves, not at once', async () => {
    const { chips, previewOf, fire } = setup();
    const preview = previewOf(chips[0]);
    fire(chips[0], 'mouseenter', { bubbles: false });
    fire(chips[0], 'mouseleave', { bubbles: false });
    assert.equal(preview.hidden, false, 'closed before the pointer could reach the preview');
    await pastGrace();
    assert.equal(preview.hidden, true);
  });

  it('stays open when the pointer moves into the preview, where a click selects text without opening the source', async () => {
    const { chips, previewOf, fire, opened } = setup();
    const preview = previewOf(chips[0]);
    fire(chips[0], 'mouseenter', { bubbles: false });
    fire(chips[0], 'mouseleave', { bubbles: false });
    // The preview is inside the chip: entering it enters the chip again.
    await sleep(PREVIEW_HIDE_DELAY_MS / 3);
    fire(chips[0], 'mouseenter', { bubbles: false });
    await pastGrace();
    assert.equal(preview.hidden, false);
    fire(preview.querySelector('[data-testid="preview-text"]') as HTMLElement, 'click');
    assert.deepEqual(opened, []);
    assert.equal(preview.hidden, false);
  });

  it('closes on the click that opens the source, and stays closed while the chip keeps focus', async () => {
    const { chips, previewOf, fire, doc, window, opened } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    fire(chip, 'mouseenter', { bubbles: false });
    fire(chip, 'mousedown');
    chip.focus();
    fire(chip, 'click');
    assert.deepEqual(opened, ['E1']);
    assert.equal(preview.hidden, true);
    assert.equal(doc.activeElement, chip);
    fire(chip, 'mouseleave', { bubbles: false });
    await pastGrace();
    assert.equal(preview.hidden, true);
    // The source opened in an editor: the view loses focus and gets it back, the chip still active.
    chip.dispatchEvent(new window.FocusEvent('blur'));
    chip.dispatchEvent(new window.FocusEvent('focus'));
    assert.equal(preview.hidden, true, 'the preview reopened when the view got focus back');
    fire(chip, 'mouseenter', { bubbles: false });
    assert.equal(preview.hidden, false, 'hovering again opens it');
  });

  it('opens on keyboard focus, closes on Escape and on blur', () => {
    const { chips, previewOf, key, doc } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    chip.focus();
    assert.equal(preview.hidden, false);
    assert.equal(key(chip, 'Escape'), false, 'Escape was not handled');
    assert.equal(preview.hidden, true);
    assert.equal(doc.activeElement, chip, 'Escape moved focus away from the chip');
    (doc.querySelector('textarea') as HTMLTextAreaElement).focus();
    chip.focus();
    assert.equal(preview.hidden, false, 'focusing the chip again opens it');
    chip.blur();
    assert.equal(preview.hidden, true);
  });

  it('stays open on mouseleave while the chip has keyboard focus', async () => {
    const { chips, previewOf, fire } = setup();
    const preview = previewOf(chips[0]);
    chips[0].focus();
    fire(chips[0], 'mouseenter', { bubbles: false });
    fire(chips[0], 'mouseleave', { bubbles: false });
    await pastGrace();
    assert.equal(preview.hidden, false);
  });

  it('closes on Enter, which opens the source', () => {
    const { chips, previewOf, key, opened } = setup();
    chips[1].focus();
    assert.equal(previewOf(chips[1]).hidden, false);
    key(chips[1], 'Enter');
    assert.deepEqual(opened, ['E2']);
    assert.equal(previewOf(chips[1]).hidden, true);
  });

  it('closes on Escape while only hovered (focus elsewhere)', () => {
    const { chips, previewOf, fire, key, doc } = setup();
    const input = doc.querySelector('textarea') as HTMLTextAreaElement;
    input.focus();
    fire(chips[0], 'mouseenter', { bubbles: false });
    key(input, 'Escape');
    assert.equal(previewOf(chips[0]).hidden, true);
  });

  it('shows one preview at a time', () => {
    const { chips, previewOf, fire } = setup();
    fire(chips[0], 'mouseenter', { bubbles: false });
    chips[1].focus();
    assert.equal(previewOf(chips[0]).hidden, true);
    assert.equal(previewOf(chips[1]).hidden, false);
  });

  it('closes when the view scrolls, not when its own passage scrolls', () => {
    const { chips, previewOf, fire, transcript, window } = setup();
    const preview = previewOf(chips[0]);
    fire(chips[0], 'mouseenter', { bubbles: false });
    (preview.querySelector('[data-testid="preview-text"]') as HTMLElement).dispatchEvent(new window.Event('scroll'));
    assert.equal(preview.hidden, false);
    transcript.dispatchEvent(new window.Event('scroll'));
    assert.equal(preview.hidden, true);
  });

  it('follows a keyboard-focused chip while the view scrolls it on screen, and closes once it is off screen', () => {
    const { chips, previewOf, layout, transcript, window } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    layout(preview, { left: 0, top: 0, width: 300, height: 150 });
    layout(chip, { left: 50, top: 300, width: 20, height: 16 });
    chip.focus();
    assert.equal(preview.style.top, '320px');
    // Focusing a chip scrolls it into view: the preview moves with it.
    layout(chip, { left: 50, top: 200, width: 20, height: 16 });
    transcript.dispatchEvent(new window.Event('scroll'));
    assert.equal(preview.hidden, false);
    assert.equal(preview.style.top, '220px');
    layout(chip, { left: 50, top: -40, width: 20, height: 16 });
    transcript.dispatchEvent(new window.Event('scroll'));
    assert.equal(preview.hidden, true);
  });

  it('sits below the chip, not over it, inside the view', () => {
    const { chips, previewOf, fire, layout, window } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    layout(chip, { left: 990, top: 100, width: 20, height: 16 });
    layout(preview, { left: 0, top: 0, width: 300, height: 150 });
    fire(chip, 'mouseenter', { bubbles: false });
    assert.equal(preview.dataset.placement, 'below');
    assert.equal(preview.style.top, '120px');
    // Shifted left to stay inside the view rather than overflow its right edge.
    assert.equal(preview.style.left, `${window.innerWidth - 300 - 4}px`);
  });

  it('flips above the chip when there is no room below', () => {
    const { chips, previewOf, fire, layout, window } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    const top = window.innerHeight - 40;
    layout(chip, { left: 50, top, width: 20, height: 16 });
    layout(preview, { left: 0, top: 0, width: 300, height: 150 });
    fire(chip, 'mouseenter', { bubbles: false });
    assert.equal(preview.dataset.placement, 'above');
    assert.equal(preview.style.top, `${top - 4 - 150}px`);
    assert.equal(preview.style.left, '50px');
    assert.equal(preview.style.maxHeight, '');
  });
});

describe('chip preview and the keyboard (issue 24)', () => {
  it("is never a Tab stop: neither the preview nor its scrolling text (a stop there vanished with the chip's focus)", () => {
    const { chips, previewOf } = setup();
    for (const chip of chips) {
      const preview = previewOf(chip);
      assert.equal(preview.tabIndex, -1);
      assert.equal(preview.querySelector<HTMLElement>('[data-testid="preview-text"]')?.tabIndex, -1);
    }
  });

  it('Escape from inside a preview (a click put focus there to select text) closes it and returns to its chip', () => {
    const { chips, previewOf, fire, key, doc } = setup();
    const chip = chips[1];
    const preview = previewOf(chip);
    fire(chip, 'mouseenter', { bubbles: false });
    const text = preview.querySelector<HTMLElement>('[data-testid="preview-text"]') as HTMLElement;
    text.focus();
    assert.equal(doc.activeElement, text);
    assert.equal(preview.hidden, false, 'focus moving into the preview keeps it open');
    key(text, 'Escape');
    assert.equal(doc.activeElement, chip, 'Escape from the preview returns to its chip');
    assert.equal(preview.hidden, true);
    // Focus back on the chip from there does not reopen it (it was dismissed).
    assert.equal(previewOf(chip).hidden, true);
  });

  it('closes when focus leaves it for somewhere outside its chip', () => {
    const { chips, previewOf, fire, doc } = setup();
    const chip = chips[0];
    const preview = previewOf(chip);
    fire(chip, 'mouseenter', { bubbles: false });
    const text = preview.querySelector<HTMLElement>('[data-testid="preview-text"]') as HTMLElement;
    text.focus();
    fire(chip, 'mouseleave', { bubbles: false });
    (doc.querySelector('textarea') as HTMLTextAreaElement).focus();
    assert.equal(preview.hidden, true);
  });
});
