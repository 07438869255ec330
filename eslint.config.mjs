// Lint rules. The layers of src/ and the imports each may make are one rule,
// eslint-rules/layers.mjs (domain at the bottom; core only domain; the webview only domain and the
// protocol; host core by type only; CLI core and domain). docs/architecture.md draws them.
// Inside core, eslint-rules/coreFolders.mjs keeps its folders apart (docs, text, indexing at the
// bottom, the store port depends on no store, retrieval never imports a store). No file of src/
// ends over 600 lines (style.md: one job per file). A few rules catch real bugs: a promise nobody
// awaits or catches (its failure is lost), a promise passed where nothing awaits it, `==`, a
// multi-line body without braces. The first two need the types (the TypeScript projects of the
// repository); layout is prettier's (.prettierrc.json, `npm run format:check`).
import tseslint from 'typescript-eslint';
import layers from './eslint-rules/layers.mjs';
import coreFolders from './eslint-rules/coreFolders.mjs';

/** The rules that read types. A test linting text that is not a file of a project turns them off. */
export const TYPE_AWARE_RULES = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'e2e/node_modules/**', '.test-cache/**', 'artifacts/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      curly: ['error', 'multi-line'],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: TYPE_AWARE_RULES,
  },
  {
    files: ['src/**/*.ts'],
    plugins: { evident: { rules: { layers, 'core-folders': coreFolders } } },
    rules: { 'evident/layers': 'error', 'evident/core-folders': 'error', 'max-lines': ['error', { max: 600 }] },
  },
);
