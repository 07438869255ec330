// The folders inside src/core and the imports between them, as one ESLint rule (the layer rule,
// layers.mjs, keeps core from importing host, webview or vscode; this one keeps core's own parts
// apart). The most specific entry for a file applies: a file's own entry, else its folder's,
// else its parent folder's. `may` lists all a part may import of core (everything else of core
// is refused); `mayNot` lists what it may not. Imports outside core are the layer rule's business.
// docs/architecture.md ("Inside core") explains each line.

import * as path from 'node:path';

export const CORE_FOLDERS = {
  // Chunking and reading documents, and text analysis (terms, stems, term statistics, shared by
  // retrieval, the stores, the models and the verifier): the bottom of core.
  'core/docs': { may: ['core/docs'] },
  'core/text': { may: ['core/text'] },
  // The contract of an indexing run and the store-independent change set.
  'core/indexing': { may: ['core/indexing', 'core/docs', 'core/types.ts'] },
  // The store port depends on contracts and on the bottom of core only, never on an implementation.
  'core/store/passageStore.ts': {
    may: ['core/indexing', 'core/docs', 'core/text', 'core/types.ts', 'core/retrieval/retrievedPassage.ts'],
  },
  // The two stores never reach into each other, nor up into what uses them.
  'core/store/local': {
    mayNot: ['core/store/postgres', 'core/indexWorker', 'core/agent', 'core/models', 'core/engine.ts'],
  },
  'core/store/postgres': {
    mayNot: ['core/store/local', 'core/indexWorker', 'core/agent', 'core/models', 'core/engine.ts'],
  },
  // Ranking and search structures never import a store, nor what uses them.
  'core/retrieval': {
    mayNot: ['core/store', 'core/indexWorker', 'core/agent', 'core/models', 'core/verifier', 'core/engine.ts'],
  },
  // What a search returns: a contract (types only) that imports nothing of core.
  'core/retrieval/retrievedPassage.ts': { may: [] },
};

function matches(entry, rel) {
  if (entry.endsWith('.ts')) return rel === entry || `${rel}.ts` === entry;
  return rel === entry || rel.startsWith(`${entry}/`);
}

/** The entry that applies to `file` (path from src/, no extension rules), the most specific one. */
function entryFor(file) {
  let best;
  for (const key of Object.keys(CORE_FOLDERS)) {
    if (matches(key, file) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description: "Keep core's own folders (docs, text, indexing, store, retrieval) in their import direction.",
    },
    schema: [],
    messages: {
      forbidden: '{{part}} {{rule}}; "{{spec}}" is {{target}}. See docs/architecture.md ("Inside core").',
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const srcRoot = path.join(context.cwd ?? context.getCwd(), 'src');
    const fromSrc = path.relative(srcRoot, filename).split(path.sep).join('/');
    if (fromSrc.startsWith('..') || path.isAbsolute(fromSrc) || !fromSrc.startsWith('core/')) return {};
    const key = entryFor(fromSrc);
    if (!key) return {};
    const rule = CORE_FOLDERS[key];
    const part = `src/${key}`;

    function check(node, spec) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path
        .relative(srcRoot, path.resolve(path.dirname(filename), spec))
        .split(path.sep)
        .join('/');
      if (!target.startsWith('core/') && target !== 'core') return;
      if (rule.may && !rule.may.some((entry) => matches(entry, target))) {
        const allowed = rule.may.length
          ? `may import of core only ${rule.may.join(', ')}`
          : 'may import nothing of core';
        context.report({ node, messageId: 'forbidden', data: { part, rule: allowed, spec, target: `src/${target}` } });
      } else if (rule.mayNot?.some((entry) => matches(entry, target))) {
        context.report({
          node,
          messageId: 'forbidden',
          data: { part, rule: `may not import ${rule.mayNot.join(', ')}`, spec, target: `src/${target}` },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportType(node) {
        const arg = node.argument;
        const literal = arg?.type === 'TSLiteralType' ? arg.literal : arg;
        if (literal?.type === 'Literal') check(node, literal.value);
      },
      CallExpression(node) {
        const [arg] = node.arguments;
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && arg?.type === 'Literal')
          check(node, arg.value);
      },
    };
  },
};
