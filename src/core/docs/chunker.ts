// Markdown → passages. A real Markdown parser (mdast) gives the blocks and their lines; blocks
// are packed into small passages that never span two sections, split long lists and tables at
// item/row boundaries and never split a code block. Each passage carries its heading path,
// 1-based line range, the document version and a stable id. Template tags, HTML comments and
// link reference definitions never reach passage text (see markdownPlumbing.ts).

import { createHash } from 'node:crypto';
import type { Content, List, ListItem, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfmTable } from 'micromark-extension-gfm-table';
import { parse as parseYaml } from 'yaml';
import type { Passage } from '../../domain/types';
import { parseInPieces } from './markdownPieces';
import { withoutPlumbing } from './markdownPlumbing';
import { capHeading } from './headingCap';
import { MAX_UNIT_CHARS, splitOverlongUnit } from './overlongBlocks';
import { documentVersion } from './version';

export { documentVersion };

export interface ChunkOptions {
  /** A passage grows up to about this many words before a new one starts. */
  maxWords: number;
  /** A longer document is parsed in pieces of at least this many characters (see markdownPieces.ts). */
  pieceChars?: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxWords: 200 };
const PIECE_CHARS = 32 * 1024;
/** The parser's syntax extensions, made once (they are read-only; each parse used to build its own). */
const PARSE_OPTIONS = {
  extensions: [frontmatter(['yaml', 'toml']), gfmTable()],
  mdastExtensions: [frontmatterFromMarkdown(['yaml', 'toml']), gfmTableFromMarkdown()],
};

/** A block (or part of one) that can go into a passage whole. */
interface Unit {
  startLine: number;
  endLine: number;
  text: string;
  words: number;
}

export interface ParsedDocument {
  title?: string;
  passages: Passage[];
}

export function chunkMarkdown(
  source: string,
  text: string,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
): ParsedDocument {
  const version = documentVersion(text);
  // Template tags and HTML comments are blanked in place first: same lines, same columns.
  const tree: Root = parseInPieces(withoutPlumbing(text), options.pieceChars ?? PIECE_CHARS, (markdown) =>
    fromMarkdown(markdown, PARSE_OPTIONS),
  );

  const title = frontMatterTitle(tree);
  const hasH1 = tree.children.some((n) => n.type === 'heading' && n.depth === 1);
  const rootPath = title && !hasH1 ? [title] : [];

  const passages: Passage[] = [];
  const seenIds = new Map<string, number>();
  let headingStack: { depth: number; text: string }[] = [];
  let units: Unit[] = [];

  const flushSection = () => {
    const headingPath = [...rootPath, ...headingStack.map((h) => h.text)];
    for (const group of pack(units, options.maxWords)) {
      const passageText = group.map((u) => u.text).join('\n');
      const heading = headingPath.join(' > ');
      let id = createHash('sha256').update(`${source}\0${heading}\0${passageText}`).digest('hex').slice(0, 16);
      const n = (seenIds.get(id) ?? 0) + 1;
      seenIds.set(id, n);
      if (n > 1) id = `${id}-${n}`;
      passages.push({
        id,
        source,
        headingPath,
        heading,
        startLine: group[0].startLine,
        endLine: group[group.length - 1].endLine,
        text: passageText,
        version,
      });
    }
    units = [];
  };

  for (const node of tree.children) {
    if (node.type === 'heading') {
      flushSection();
      // Capped: the heading is copied into every passage of its section; what is cut off opens the section.
      const { heading: textOfHeading, rest } = capHeading(clean(toString(node, { includeHtml: false })));
      headingStack = headingStack.filter((h) => h.depth < node.depth);
      if (textOfHeading) headingStack.push({ depth: node.depth, text: textOfHeading });
      const line = node.position?.start.line;
      if (rest && line !== undefined) units.push(...splitOverlongUnit(unit(line, line, rest), options.maxWords));
      continue;
    }
    units.push(
      ...unitsOf(node, options.maxWords).flatMap((u) => splitOverlongUnit(u, options.maxWords, node.type === 'code')),
    );
  }
  flushSection();
  return { title, passages };
}

function frontMatterTitle(tree: Root): string | undefined {
  const first = tree.children[0];
  if (!first || first.type !== 'yaml') return undefined;
  try {
    const data: unknown = parseYaml(first.value);
    if (data && typeof data === 'object' && 'title' in data) {
      const title = (data as { title: unknown }).title;
      if (typeof title === 'string' && title.trim()) return capHeading(clean(title)).heading;
    }
  } catch {
    // Malformed front matter is not fatal: the document is still indexed.
  }
  return undefined;
}

/** The units of one top-level block: long lists and tables are split at item/row boundaries. */
function unitsOf(node: RootContent, maxWords: number): Unit[] {
  const pos = node.position;
  if (!pos) return [];
  switch (node.type) {
    case 'yaml':
    case 'thematicBreak':
    case 'definition':
      return [];
    case 'list': {
      const whole = unit(pos.start.line, pos.end.line, renderList(node, 0));
      if (whole.words <= maxWords) return whole.text ? [whole] : [];
      return node.children.flatMap((item, i) => {
        const p = item.position;
        if (!p) return [];
        const marker = node.ordered ? `${(node.start ?? 1) + i}.` : '-';
        const u = unit(p.start.line, p.end.line, renderItem(item, marker, 0));
        return u.text ? [u] : [];
      });
    }
    case 'table': {
      const whole = unit(pos.start.line, pos.end.line, renderTable(node));
      if (whole.words <= maxWords || node.children.length <= 2) return [whole];
      // Split by rows, repeating the header row so each part still reads as a table.
      const header = renderRow(node.children[0].children.map((c) => toString(c, { includeHtml: false })));
      const parts: Unit[] = [];
      let rows: string[] = [];
      let start = node.children[1].position?.start.line ?? pos.start.line;
      let end = start;
      for (const row of node.children.slice(1)) {
        const rowText = renderRow(row.children.map((c) => toString(c, { includeHtml: false })));
        const draft = unit(start, end, [header, ...rows, rowText].join('\n'));
        if (rows.length > 0 && draft.words > maxWords) {
          parts.push(unit(start, end, [header, ...rows].join('\n')));
          rows = [];
          start = row.position?.start.line ?? end;
        }
        rows.push(rowText);
        end = row.position?.end.line ?? end;
      }
      if (rows.length) parts.push(unit(start, end, [header, ...rows].join('\n')));
      return parts;
    }
    case 'code':
      return node.value.trim() ? [unit(pos.start.line, pos.end.line, node.value)] : [];
    case 'html': {
      const text = htmlText(node.value);
      return text ? [unit(pos.start.line, pos.end.line, text)] : [];
    }
    default: {
      const text = renderBlock(node as Content, 0);
      return text ? [unit(pos.start.line, pos.end.line, text)] : [];
    }
  }
}

function unit(startLine: number, endLine: number, text: string): Unit {
  const t = text.trim();
  return { startLine, endLine, text: t, words: t ? t.split(/\s+/).length : 0 };
}

/**
 * Packs units into groups of at most `maxWords` words and MAX_UNIT_CHARS characters (a single
 * larger unit stays whole; splitOverlongUnit has cut every unit to the character cap). The
 * character bound matters for unbroken tokens: 200 one-word parts of a base64 blob are 200 words.
 */
function pack(units: Unit[], maxWords: number): Unit[][] {
  const groups: Unit[][] = [];
  let current: Unit[] = [];
  let words = 0;
  let chars = 0;
  for (const u of units) {
    // Units are joined by a line break.
    if (current.length && (words + u.words > maxWords || chars + 1 + u.text.length > MAX_UNIT_CHARS)) {
      groups.push(current);
      current = [];
      words = 0;
      chars = 0;
    }
    chars += (current.length ? 1 : 0) + u.text.length;
    current.push(u);
    words += u.words;
  }
  if (current.length) groups.push(current);
  return groups;
}

function renderBlock(node: Content, indent: number): string {
  switch (node.type) {
    case 'list':
      return renderList(node, indent);
    case 'table':
      return renderTable(node);
    case 'code':
      return node.value;
    case 'html':
      return htmlText(node.value);
    case 'blockquote':
      return node.children
        .map((c) => renderBlock(c as Content, indent))
        .filter(Boolean)
        .join('\n');
    default:
      return clean(toString(node, { includeHtml: false }));
  }
}

function renderList(list: List, indent: number): string {
  return list.children
    .map((item, i) => renderItem(item, list.ordered ? `${(list.start ?? 1) + i}.` : '-', indent))
    .filter(Boolean)
    .join('\n');
}

function renderItem(item: ListItem, marker: string, indent: number): string {
  const pad = '  '.repeat(indent);
  const lines: string[] = [];
  for (const child of item.children) {
    if (child.type === 'list') {
      lines.push(renderList(child, indent + 1));
    } else {
      const text = renderBlock(child as Content, indent);
      if (text) lines.push(lines.length === 0 ? `${pad}${marker} ${text}` : `${pad}  ${text}`);
    }
  }
  if (item.checked === true) lines[0] = lines[0]?.replace(`${marker} `, `${marker} [x] `);
  return lines.join('\n');
}

function renderTable(table: Table): string {
  return table.children
    .map((row) => renderRow(row.children.map((cell) => toString(cell, { includeHtml: false }))))
    .join('\n');
}

function renderRow(cells: string[]): string {
  return cells.map(clean).join(' | ');
}

/** Visible text of an HTML block: tags and comments dropped (the parser keeps raw HTML as-is). */
function htmlText(html: string): string {
  return clean(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'"),
  ).replace(/\s+([.,;:!?])/g, '$1');
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
