// Lint rules that keep the layers honest: src/core and src/shared never import `vscode`,
// and core never reaches into the host, the webview or the CLI.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'e2e/node_modules/**', '.test-cache/**', 'artifacts/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core and src/shared must not depend on VS Code: put editor code in src/host.' }],
        patterns: [{ group: ['**/host/**', '**/webview/**', '**/cli/**'], message: 'core must not import host, webview or CLI code.' }],
      }],
    },
  },
);
