// Roving focus (src/webview/roving.ts): a group is one Tab stop; arrow keys, Home and End move
// focus between its items (wrapping); the item focused last keeps the stop.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { rovingGroup } from '../../../src/webview/roving';

function toolbar(): { dom: JSDOM; group: HTMLElement; items: HTMLElement[] } {
  const dom = new JSDOM(
    '<!doctype html><html><body><div id="g"><button>a</button><span>not an item</span><button>b</button><button>c</button></div><button id="out">out</button></body></html>',
  );
  const group = dom.window.document.getElementById('g') as HTMLElement;
  rovingGroup(group, 'button');
  return { dom, group, items: [...group.querySelectorAll('button')] };
}

function press(dom: JSDOM, key: string): KeyboardEvent {
  const event = new dom.window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  dom.window.document.activeElement?.dispatchEvent(event);
  return event;
}

const tabStops = (items: HTMLElement[]) => items.map((i) => i.getAttribute('tabindex'));

describe('roving focus', () => {
  it('makes the first item the one Tab stop', () => {
    const { items } = toolbar();
    assert.deepEqual(tabStops(items), ['0', '-1', '-1']);
  });

  it('moves with the arrow keys (wrapping), Home and End, and the focused item keeps the stop', () => {
    const { dom, items } = toolbar();
    const focused = () => dom.window.document.activeElement?.textContent;
    items[0].focus();
    assert.ok(press(dom, 'ArrowRight').defaultPrevented);
    assert.equal(focused(), 'b');
    assert.deepEqual(tabStops(items), ['-1', '0', '-1']);
    press(dom, 'ArrowDown');
    assert.equal(focused(), 'c');
    press(dom, 'ArrowRight');
    assert.equal(focused(), 'a', 'wraps to the first');
    press(dom, 'ArrowLeft');
    assert.equal(focused(), 'c', 'wraps to the last');
    press(dom, 'ArrowUp');
    assert.equal(focused(), 'b');
    press(dom, 'Home');
    assert.equal(focused(), 'a');
    press(dom, 'End');
    assert.equal(focused(), 'c');
    assert.deepEqual(tabStops(items), ['-1', '-1', '0']);
  });

  it('leaves other keys and keys outside its items alone', () => {
    const { dom, items } = toolbar();
    items[1].focus();
    assert.equal(press(dom, 'a').defaultPrevented, false);
    assert.equal(dom.window.document.activeElement, items[1]);
    (dom.window.document.getElementById('out') as HTMLElement).focus();
    assert.equal(press(dom, 'ArrowRight').defaultPrevented, false);
  });
});
