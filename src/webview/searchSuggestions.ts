// Google's Search Suggestions (`searchEntryPoint.renderedContent`), which Google's terms for
// grounded results require to be shown with the answer. The markup is untrusted HTML from the
// provider, so it never reaches the page as HTML:
//   * it is parsed by DOMParser into an inert document (no script runs, nothing loads);
//   * an allow-list copy is built with createElement/createElementNS: layout elements, links and
//     SVG shapes; no script, style, iframe, object, image, form, foreignObject or <use>; no `on*`
//     or other unlisted attribute; links only to https pages;
//   * its CSS goes into a constructed stylesheet of a shadow root (CSSOM: allowed by the webview's
//     strict CSP, which blocks inline <style>; `@import` is dropped, and the CSP's img-src/font-src
//     still block any url() fetch), so Google's look applies and cannot leak into the chat;
//   * a click or Enter on a suggestion asks the host to open it (VS Code's external-link confirmation).
// A sandboxed srcdoc iframe was the alternative: it inherits the webview's CSP (so Google's inline
// styles would not apply) and its links could not reach the host; this keeps both.

const HTML_ELEMENTS = new Set(['div', 'span', 'a', 'p', 'br', 'b', 'i', 'em', 'strong', 'small', 'ul', 'li', 'svg']);
const SVG_ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'circle',
  'ellipse',
  'rect',
  'line',
  'polyline',
  'polygon',
  'defs',
  'lineargradient',
  'radialgradient',
  'stop',
  'clippath',
  'title',
]);
const HTML_ATTRIBUTES = new Set(['class', 'id', 'title', 'aria-label', 'aria-hidden', 'role', 'dir', 'lang']);
const SVG_ATTRIBUTES = new Set([
  'class',
  'id',
  'viewbox',
  'width',
  'height',
  'fill',
  'fill-rule',
  'fill-opacity',
  'clip-rule',
  'clip-path',
  'd',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'offset',
  'stop-color',
  'stop-opacity',
  'opacity',
  'transform',
  'gradientunits',
  'gradienttransform',
  'preserveaspectratio',
  'aria-hidden',
  'role',
  'focusable',
]);
const SVG_NS = 'http://www.w3.org/2000/svg';
/** References inside SVG attributes may only point into the same document: `url(#id)`. */
const EXTERNAL_REFERENCE = /url\s*\(\s*(?!['"]?#)/i;

export interface SuggestionActions {
  openLink(url: string): void;
}

function isHttpsLink(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

function copyNode(doc: Document, node: Node, inSvg: boolean, actions: SuggestionActions): Node | undefined {
  if (node.nodeType === 3) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== 1) return undefined;
  const source = node as Element;
  const tag = source.localName.toLowerCase();
  const svg = inSvg || tag === 'svg';
  if (svg ? !SVG_ELEMENTS.has(tag) : !HTML_ELEMENTS.has(tag)) return undefined;
  const copy = svg ? doc.createElementNS(SVG_NS, source.localName) : doc.createElement(tag);
  const allowed = svg ? SVG_ATTRIBUTES : HTML_ATTRIBUTES;
  for (const attr of Array.from(source.attributes)) {
    const name = attr.name.toLowerCase();
    if (!allowed.has(name) || EXTERNAL_REFERENCE.test(attr.value)) continue;
    copy.setAttribute(attr.name, attr.value);
  }
  if (tag === 'a') {
    const href = source.getAttribute('href') ?? '';
    if (isHttpsLink(href)) {
      copy.setAttribute('href', href);
      copy.setAttribute('data-testid', 'search-suggestion');
      copy.addEventListener('click', (event) => {
        event.preventDefault();
        actions.openLink(href);
      });
    }
  }
  for (const child of Array.from(source.childNodes)) {
    const c = copyNode(doc, child, svg, actions);
    if (c) copy.appendChild(c);
  }
  // An empty <svg> (e.g. one that only carried a handler) would still take 300×150 px.
  if (tag === 'svg' && !copy.hasChildNodes()) return undefined;
  return copy;
}

/** Google's CSS, without @import (nothing is fetched); applied through CSSOM, never inline. */
function adoptStyles(root: ShadowRoot, css: string): void {
  const View = root.ownerDocument.defaultView as (Window & { CSSStyleSheet?: typeof CSSStyleSheet }) | null;
  if (!css.trim() || !View?.CSSStyleSheet || !('adoptedStyleSheets' in root)) return;
  try {
    const sheet = new View.CSSStyleSheet();
    sheet.replaceSync(css.replace(/@import[^;]*;?/gi, ''));
    root.adoptedStyleSheets = [sheet];
  } catch {
    // Unparseable CSS: the suggestions still show, unstyled.
  }
}

/** The suggestions block, or undefined when the markup holds no usable content. */
export function renderSearchSuggestions(
  doc: Document,
  renderedContent: string,
  actions: SuggestionActions,
): HTMLElement | undefined {
  const View = doc.defaultView as (Window & { DOMParser?: typeof DOMParser }) | null;
  if (!View?.DOMParser) return undefined;
  const parsed = new View.DOMParser().parseFromString(renderedContent, 'text/html');
  const css = Array.from(parsed.querySelectorAll('style'))
    .map((s) => s.textContent ?? '')
    .join('\n');
  const host = doc.createElement('div');
  host.className = 'search-suggestions';
  host.setAttribute('data-testid', 'search-suggestions');
  host.setAttribute('role', 'group');
  host.setAttribute('aria-label', 'Google Search suggestions');
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, css);
  for (const child of Array.from(parsed.body.childNodes)) {
    const c = copyNode(doc, child, false, actions);
    if (c) root.appendChild(c);
  }
  return root.textContent?.trim() ? host : undefined;
}
