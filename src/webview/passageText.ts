// A passage's text as formatted, safe DOM for its preview: list items as a list, heading lines
// in bold, emphasis, code and links' labels from markdown-it *tokens* (never an HTML string),
// so `<script>` or `<img onerror=…>` in a document shows as those characters. Links in a
// preview are shown as their label only: a preview is for reading, the chip opens the source.

import { element } from './dom';
import { renderInline, type InlineContext } from './inlineMarkdown';

const LIST_ITEM = /^\s*(?:([-*+•])|(\d{1,3})[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING_LINE = /^\s*#{1,6}\s+/;

/** Renders the passage text (one block per line) into formatted blocks. */
export function renderPassageText(doc: Document, text: string): DocumentFragment {
  const ctx: InlineContext = {
    doc,
    // An id-like "[E2]" inside a document is the document's own text, not a citation.
    citation: (id) => doc.createTextNode(`[${id}]`),
    webLink: (_href, label) => doc.createTextNode(label),
  };
  const fragment = doc.createDocumentFragment();
  let list: HTMLElement | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      list = undefined;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const tag = item[2] !== undefined ? 'ol' : 'ul';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = element(doc, tag);
        fragment.append(list);
      }
      const li = element(doc, 'li');
      li.append(renderInline(line.slice(item[0].length), ctx));
      list.append(li);
      continue;
    }
    list = undefined;
    if (HEADING_LINE.test(line)) {
      const strong = element(doc, 'strong', { class: 'preview-line' });
      strong.append(renderInline(line.replace(HEADING_LINE, ''), ctx));
      fragment.append(strong);
      continue;
    }
    const p = element(doc, 'span', { class: 'preview-line' });
    p.append(renderInline(line, ctx));
    fragment.append(p);
  }
  return fragment;
}
