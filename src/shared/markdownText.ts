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
