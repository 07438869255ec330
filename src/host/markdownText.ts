// Puts untrusted text (passages, model sentences, file names) into Markdown so that it renders
// as exactly that text: every ASCII punctuation character that could start markup is
// backslash-escaped (always literal in CommonMark), and line breaks stay line breaks.

const MARKUP = /[\\`*_{}[\]()#+\-.!|<>~&:"'=$%^@]/g;

/** One line of text as literal Markdown. */
export function escapeMarkdownLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(MARKUP, (c) => `\\${c}`);
}

/** Multi-line text as literal Markdown, one paragraph per non-empty line. */
export function escapeMarkdownText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map(escapeMarkdownLine)
    .join('\n\n');
}

/** Text as a Markdown code span (literal, monospace): fenced with more backticks than it holds. */
export function markdownCodeSpan(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\s+/g, ' ')}${pad}${fence}`;
}
