// Renders one sentence of model text as DOM nodes: emphasis, strong, strikethrough, code
// spans and links from markdown-it *tokens*, every piece of text through `textContent`, and
// each `[E#]` as a citation node built by the caller. No HTML string is ever parsed, so a
// sentence holding `<script>` or `<img onerror=…>` shows those characters as text.

import MarkdownIt from 'markdown-it';
import { findCitationGroups } from '../domain/citations';

type Token = ReturnType<MarkdownIt['parseInline']>[number];

const markdown = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false }).enable(
  'strikethrough',
);

export interface InlineContext {
  doc: Document;
  /** The node for a cited evidence id (the caller checks the id against the turn's evidence). */
  citation(evidenceId: string): Node;
  /** The node for a link whose target is a plain web URL; other targets render as text. */
  webLink(href: string, label: string): Node;
}

export function isWebUrl(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Text with its citations replaced by nodes from `ctx.citation`. */
export function textWithCitations(text: string, ctx: InlineContext): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const group of findCitationGroups(text)) {
    if (group.start > last) nodes.push(ctx.doc.createTextNode(text.slice(last, group.start)));
    for (const id of group.evidenceIds) nodes.push(ctx.citation(id));
    last = group.end;
  }
  if (last < text.length) nodes.push(ctx.doc.createTextNode(text.slice(last)));
  return nodes;
}

const WRAPPERS: Record<string, string> = { em_open: 'em', strong_open: 'strong', s_open: 's' };

/** Renders inline Markdown of `source` into a fragment. */
export function renderInline(source: string, ctx: InlineContext): DocumentFragment {
  const fragment = ctx.doc.createDocumentFragment();
  const tokens = markdown.parseInline(source, {})[0]?.children ?? [];
  const stack: Node[] = [fragment];
  const top = (): Node => stack[stack.length - 1];
  // A link's label is collected as plain text and rendered as one node when it closes.
  let link: { href: string; label: string } | undefined;

  for (const token of tokens) {
    if (link) {
      if (token.type === 'link_close') {
        top().appendChild(
          isWebUrl(link.href) ? ctx.webLink(link.href, link.label) : ctx.doc.createTextNode(link.label),
        );
        link = undefined;
      } else {
        link.label += plainText(token);
      }
      continue;
    }
    switch (token.type) {
      case 'text':
        for (const node of textWithCitations(token.content, ctx)) top().appendChild(node);
        break;
      case 'code_inline': {
        const code = ctx.doc.createElement('code');
        code.textContent = token.content;
        top().appendChild(code);
        break;
      }
      case 'softbreak':
      case 'hardbreak':
        top().appendChild(ctx.doc.createTextNode(' '));
        break;
      case 'image':
        top().appendChild(ctx.doc.createTextNode(token.content));
        break;
      case 'link_open':
        link = { href: token.attrGet('href') ?? '', label: '' };
        break;
      case 'em_open':
      case 'strong_open':
      case 's_open': {
        const element = ctx.doc.createElement(WRAPPERS[token.type]);
        top().appendChild(element);
        stack.push(element);
        break;
      }
      case 'em_close':
      case 'strong_close':
      case 's_close':
        if (stack.length > 1) stack.pop();
        break;
      default:
        // Anything else (there should be nothing else with html disabled) stays visible as text.
        if (token.content) top().appendChild(ctx.doc.createTextNode(token.content));
    }
  }
  return fragment;
}

function plainText(token: Token): string {
  if (token.type === 'softbreak' || token.type === 'hardbreak') return ' ';
  return token.content;
}
