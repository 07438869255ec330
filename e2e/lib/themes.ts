// The four kinds of colour theme every view is checked in: the label in the theme picker and
// the class VS Code puts on a webview's body once it applies.

export const THEMES = [
  { kind: 'light', label: 'Light Modern', bodyClass: 'vscode-light' },
  { kind: 'dark', label: 'Dark Modern', bodyClass: 'vscode-dark' },
  { kind: 'hc-dark', label: 'Dark High Contrast', bodyClass: 'vscode-high-contrast' },
  { kind: 'hc-light', label: 'Light High Contrast', bodyClass: 'vscode-high-contrast-light' },
] as const;
