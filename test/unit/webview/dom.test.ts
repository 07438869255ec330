// The chat view's DOM builders (src/webview/dom.ts): text only through textContent, icons hidden
// from screen readers, buttons with a visible label, and Enter/Space/click on button-like elements.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { activate, button, element, icon } from '../../../src/webview/dom';

describe('webview DOM builders', () => {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  const doc = dom.window.document;

  it('puts text in as text, never as markup', () => {
    const el = element(doc, 'div', { class: 'x', 'data-testid': 't' }, '<img src=x onerror="alert(1)">');
    assert.equal(el.querySelector('img'), null);
    assert.equal(el.textContent, '<img src=x onerror="alert(1)">');
    assert.equal(el.getAttribute('data-testid'), 't');
  });

  it('hides icons from screen readers; a button has its label visible and as its title', () => {
    assert.equal(icon(doc, 'key').getAttribute('aria-hidden'), 'true');
    let clicks = 0;
    const b = button(doc, 'retry', 'refresh', 'Retry', () => clicks++);
    assert.equal(b.getAttribute('type'), 'button');
    assert.equal(b.getAttribute('title'), 'Retry');
    assert.equal(b.textContent, 'Retry');
    assert.ok(b.querySelector('.codicon-refresh'));
    b.click();
    assert.equal(clicks, 1);
  });

  it('acts on click, Enter and Space, and on no other key', () => {
    const el = element(doc, 'span', { role: 'button' });
    let acted = 0;
    activate(el, () => acted++);
    el.click();
    for (const key of ['Enter', ' ', 'a', 'Escape']) {
      el.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    }
    assert.equal(acted, 3);
  });
});
