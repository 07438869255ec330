// What a reader never sees in a rendered page: site-generator template tags (`{% … %}`,
// `{{ … }}`, `{% comment %}…{% endcomment %}`) and HTML comments. They are blanked out of the
// Markdown before it is parsed, character for character (line breaks kept), so that every line
// and column stays where it was and passages keep exact line ranges. A tag used as a link
// destination (`[x]({% page "/a" %})`, `[ref]: {% page "/a" %}`) becomes `#`, so the link stays a
// link (its text kept) and the reference definition stays a definition (dropped like any other).
// A Slack channel tag reads as the channel (`#people-ops`). Fenced code, inline code and
// `{% raw %}` blocks are left as written: there the syntax is the content.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * One pass over text outside code: comment blocks, raw blocks, HTML comments, template tags;
 * inline code spans are matched only to be skipped.
 */
const PLUMBING =
  /(`+)(?:(?!\n[ \t]*\n)[\s\S])*?\1|\{%-?\s*comment\s*-?%\}[\s\S]*?\{%-?\s*endcomment\s*-?%\}|(\{%-?\s*raw\s*-?%\})([\s\S]*?)(\{%-?\s*endraw\s*-?%\})|<!--[\s\S]*?-->|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g;

const SLACK_CHANNEL = /^\{%-?\s*slack_channel\s+["']([^"']+)["']/;
/** Just before a link destination: `](`, `]: ` of a definition, or `<`. */
const DESTINATION_BEFORE = /(?:\]\(\s*|^\s{0,3}\[[^\]]+\]:\s*|<)$/;

/** Spaces for every character but line breaks. */
function blank(text: string): string {
  return text.replace(/[^\r\n]/g, ' ');
}

/** `replacement` padded with spaces to the length of `original` (only used where it fits on one line). */
function fitted(replacement: string, original: string): string {
  if (replacement.length > original.length || /[\r\n]/.test(original)) return blank(original);
  return replacement + ' '.repeat(original.length - replacement.length);
}

function cleanSegment(segment: string): string {
  return segment.replace(
    PLUMBING,
    (
      match: string,
      ticks: string | undefined,
      rawOpen: string | undefined,
      rawBody: string,
      rawClose: string,
      offset: number,
    ) => {
      if (ticks) return match; // inline code
      if (rawOpen) return blank(rawOpen) + rawBody + blank(rawClose);
      if (match.startsWith('{%')) {
        const channel = SLACK_CHANNEL.exec(match);
        if (channel) return fitted(`#${channel[1]}`, match);
        const lineStart = segment.lastIndexOf('\n', offset - 1) + 1;
        if (DESTINATION_BEFORE.test(segment.slice(lineStart, offset))) return fitted('#', match);
      }
      return blank(match);
    },
  );
}

/** The Markdown without template tags and HTML comments, same length, same lines. */
export function withoutPlumbing(markdown: string): string {
  if (!markdown.includes('{') && !markdown.includes('<!--')) return markdown;
  const lines = markdown.split(/(?<=\n)/);
  const out: string[] = [];
  let segment: string[] = [];
  let fence: string | undefined;
  let start = 0;
  // Front matter is YAML, not Markdown: left alone.
  if (/^---\r?\n/.test(markdown)) {
    const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
    if (end > 0) {
      out.push(...lines.slice(0, end + 1));
      start = end + 1;
    }
  }
  const flush = () => {
    if (segment.length) out.push(cleanSegment(segment.join('')));
    segment = [];
  };
  for (const line of lines.slice(start)) {
    if (fence) {
      out.push(line);
      const close = FENCE.exec(line);
      if (
        close &&
        close[1][0] === fence[0] &&
        close[1].length >= fence.length &&
        line.slice(close[0].length).trim() === ''
      ) {
        fence = undefined;
      }
      continue;
    }
    const open = FENCE.exec(line);
    if (open && !(open[1][0] === '`' && line.slice(open[0].length).includes('`'))) {
      flush();
      fence = open[1];
      out.push(line);
      continue;
    }
    segment.push(line);
  }
  flush();
  return out.join('');
}
