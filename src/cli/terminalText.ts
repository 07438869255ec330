// Text from documents (file names, headings) printed to a terminal: control characters are
// shown escaped, so a file name with a newline cannot print a fake line of output and an
// escape sequence in a heading cannot drive the terminal.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeForTerminal(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
