// The page of one of our webviews (the chat view, the metrics dashboard), with the strict CSP:
// nothing by default; styles, fonts and images only from the extension; one script, by nonce.
// The body is our own static markup: document and model text reach the DOM only as text, later.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  title: string;
  /** Stylesheets, as paths under the extension folder, with an optional element id. */
  stylesheets: { path: string; id?: string }[];
  /** Static markup inside <body>, before the script. */
  body: string;
  /** The script, as a path under the extension folder. */
  script: string;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(18).toString('base64');
  const asset = (path: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path.split('/'))).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const links = page.stylesheets.map(
    (s) => `<link rel="stylesheet" href="${asset(s.path)}"${s.id ? ` id="${s.id}"` : ''}>`,
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links.join('\n')}
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${asset(page.script)}"></script>
</body>
</html>`;
}
