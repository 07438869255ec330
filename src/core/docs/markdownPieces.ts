// A long Markdown document parsed in pieces. The parser's working memory grows with the text it
// is given (about 100 MB for a 260 KB page of meeting notes), so a long document is cut before
// some of its ATX headings and each piece is parsed on its own, with its lines where they were.
// A cut is only made where the parse of the whole document would be at the top level with every
// block closed: a column-0 `#` heading after a blank line closes paragraphs, lists, block quotes,
// tables and indented code; it does not close a fenced code block, a raw HTML block (`<pre>`,
// `<script>`, `<style>`, `<textarea>`, `<?`, `<!X`, CDATA) or front matter, so cuts are not made
// inside those as far as a line scan can tell, and a piece whose parse ends in code or HTML (the
// scan was wrong, or the block ran to the cut) is parsed again with the rest of the document.
// Link reference definitions apply to the whole document: see parseInPieces.

import type { Root, RootContent } from 'mdast';

const ATX_HEADING = /^#{1,6}(?:[ \t\r]|$)/;
const BLANK = /^[ \t\r]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const RAW_HTML_OPEN = /^ {0,3}<(pre|script|style|textarea)(?:[\s>]|$)/i;
const RAW_HTML_CLOSE = /<\/(?:pre|script|style|textarea)>/i;
/** Blocks that run to an end marker across blank lines and headings: the document is parsed whole. */
const OTHER_RAW_HTML = /^ {0,3}<(?:\?|![A-Za-z]|!\[CDATA\[)/m;
const FRONT_MATTER_FENCE = /^(?:---|\+\+\+)[ \t\r]*$/;

/** Where pieces start (0-based line numbers, the first is 0), each piece at least `minChars` long. */
export function pieceStarts(text: string, minChars: number): number[] {
  if (text.length <= minChars || OTHER_RAW_HTML.test(text) || /\r(?!\n)/.test(text)) return [0];
  const lines = text.split('\n');
  let first = 1;
  if (FRONT_MATTER_FENCE.test(lines[0])) {
    const close = lines.findIndex((line, i) => i > 0 && FRONT_MATTER_FENCE.test(line));
    if (close < 0) return [0];
    first = close + 1;
  }
  const starts = [0];
  let fence: { char: string; length: number } | undefined;
  let rawHtml = false;
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i >= first && !fence && !rawHtml && chars >= minChars && ATX_HEADING.test(line) && BLANK.test(lines[i - 1])) {
      starts.push(i);
      chars = 0;
    }
    chars += line.length + 1;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1][0] === fence.char && f[1].length >= fence.length && BLANK.test(f[2])) fence = undefined;
    } else if (rawHtml) {
      if (RAW_HTML_CLOSE.test(line)) rawHtml = false;
    } else if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
      fence = { char: f[1][0], length: f[1].length };
    } else if (RAW_HTML_OPEN.test(line) && !RAW_HTML_CLOSE.test(line)) {
      rawHtml = true;
    }
  }
  return starts;
}

interface Piece {
  /** 0-based first line, and the character range of the piece in the text. */
  line: number;
  from: number;
  to: number;
  children: RootContent[];
  /** The link reference definitions the piece holds: identifier → label as written. */
  defines: Map<string, string>;
}

/**
 * Parses `text` with `parse`, in pieces when it is longer than `minChars`: the same tree's
 * top-level blocks, with the same lines, as one parse of the whole text (offsets differ).
 * Link reference definitions apply to the whole document: a piece that may use a label another
 * piece defines is parsed again with those definitions written into its blank leading lines (or
 * after its end), and the nodes they make are left out.
 */
export function parseInPieces(text: string, minChars: number, parse: (text: string) => Root): Root {
  const starts = pieceStarts(text, minChars);
  if (starts.length === 1) return parse(text);
  // Character offsets of the line starts where pieces begin.
  const offsets: number[] = [];
  let line = 0;
  let at = 0;
  for (const start of starts) {
    while (line < start) {
      at = text.indexOf('\n', at) + 1;
      line++;
    }
    offsets.push(at);
  }
  const pieces: Piece[] = [];
  for (let i = 0; i < starts.length; i++) {
    let to = i === starts.length - 1 ? text.length : offsets[i + 1];
    // Blank lines in front keep the piece's lines where they are in the document.
    let children = parse('\n'.repeat(starts[i]) + text.slice(offsets[i], to)).children;
    const end = children[children.length - 1];
    const merged = to < text.length && end && (end.type === 'code' || end.type === 'html');
    if (merged) {
      // The piece may end inside a block that the next one continues: the rest in one parse.
      to = text.length;
      children = parse('\n'.repeat(starts[i]) + text.slice(offsets[i])).children;
    }
    pieces.push({ line: starts[i], from: offsets[i], to, children, defines: definitionsIn(children) });
    if (merged) break;
  }

  const labels = new Map<string, string>();
  for (const piece of pieces) for (const [id, label] of piece.defines) if (!labels.has(id)) labels.set(id, label);
  const root: Root = { type: 'root', children: [] };
  for (const [i, piece] of pieces.entries()) {
    const foreign = [...labels].filter(([id]) => !piece.defines.has(id));
    const source = text.slice(piece.from, piece.to);
    const lower = foreign.length ? source.toLowerCase() : '';
    const used = foreign.filter(([id]) => lower.includes(id.toLowerCase().split(' ')[0]));
    if (!used.length) {
      root.children.push(...piece.children);
      continue;
    }
    const definitions = used.map(([, label]) => `[${label.replace(/\s+/g, ' ')}]: #`);
    const last = i === pieces.length - 1;
    let markdown: string;
    if (definitions.length < piece.line) {
      // Into the blank lines in front: definitions, then at least one blank line.
      markdown = definitions.join('\n') + '\n'.repeat(piece.line - definitions.length + 1) + source;
    } else if (!last) {
      // After the piece, which ends with a blank line outside any open block (see pieceStarts).
      markdown = '\n'.repeat(piece.line) + source + definitions.join('\n') + '\n';
    } else {
      return parse(text);
    }
    const lastLine = piece.line + countLines(source);
    root.children.push(
      ...parse(markdown).children.filter((n) => {
        const at = n.position?.start.line ?? 0;
        return at > piece.line && at <= lastLine;
      }),
    );
  }
  return root;
}

/** The link reference definitions in a tree: identifier → label as written. */
function definitionsIn(nodes: RootContent[], out = new Map<string, string>()): Map<string, string> {
  for (const node of nodes) {
    if (node.type === 'definition') {
      if (!out.has(node.identifier)) out.set(node.identifier, node.label ?? node.identifier);
    } else if ('children' in node) {
      definitionsIn(node.children as RootContent[], out);
    }
  }
  return out;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
