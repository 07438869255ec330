// The status-bar item: index state at a glance ("Evident: not indexed", "indexing 42%",
// "1,234 passages · hybrid" or "· lexical only"); a click reindexes. While indexing it shows the
// same figure as the chat view (indexFigure.ts).

import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import type { IndexView } from '../shared/protocol';
import type { WorkspaceIndex } from './workspaceIndex';
import { describeVectorFill, shortVectorFill } from '../domain/partialRetrieval';
import { indexingPercent } from '../domain/indexFigure';
import { counted } from '../domain/wording';

const numberFormat = new Intl.NumberFormat('en-US');

export function statusBarText(view: IndexView): string {
  switch (view.state) {
    case 'no-folder':
      return '$(book) Evident: no folder';
    case 'not-indexed':
      return '$(book) Evident: not indexed';
    case 'indexing':
      return view.vectors
        ? `$(sync~spin) Evident: ${shortVectorFill(view.vectors)}`
        : `$(sync~spin) Evident: indexing ${indexingPercent(view)}%`;
    case 'error':
      return '$(warning) Evident: index error';
    case 'indexed':
      return `$(book) ${numberFormat.format(view.passages)} ${view.passages === 1 ? 'passage' : 'passages'} · ${view.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'}${view.vectors ? ` (${shortVectorFill(view.vectors)})` : ''}`;
  }
}

/** The tooltip and screen-reader text: says the retrieval mode only once there is an index. */
export function statusBarLabel(view: IndexView): string {
  switch (view.state) {
    case 'indexed':
      return (
        `Evident: ${counted(view.documents, 'document')}, ${counted(view.passages, 'passage')}, ${view.retrieval === 'hybrid' ? 'hybrid retrieval' : 'lexical retrieval only'}` +
        (view.vectors ? `; retrieval is partial: ${describeVectorFill(view.vectors)} Reindex to compute the rest.` : '')
      );
    case 'indexing':
      return view.vectors
        ? `Evident: computing vectors in the background; retrieval is partial: ${describeVectorFill(view.vectors)}`
        : `Evident: indexing the workspace docs, ${indexingPercent(view)}%`;
    case 'not-indexed':
      return 'Evident: the workspace docs are not indexed yet';
    case 'no-folder':
      return 'Evident: open a folder to index its Markdown documents';
    case 'error':
      return 'Evident: indexing failed';
  }
}

export function registerStatusBar(context: vscode.ExtensionContext, index: WorkspaceIndex): void {
  const item = vscode.window.createStatusBarItem('evident.index', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Evident index';
  item.command = { command: Commands.reindex, title: 'Reindex Workspace Docs' };
  const render = (view: IndexView) => {
    item.text = statusBarText(view);
    const label = statusBarLabel(view);
    item.accessibilityInformation = { label };
    item.tooltip = [label, view.message, 'Click to reindex.'].filter(Boolean).join('\n\n');
    item.backgroundColor =
      view.state === 'error' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  };
  render(index.status);
  item.show();
  context.subscriptions.push(item, index.onDidChange(render));
}
