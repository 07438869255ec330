// The layers of src/ and the imports each may make, as one ESLint rule (our "import zones").
// Every import counts: static, `import type`, `export … from`, `import()`, `require()` and
// `import('…').Type`. Only host may import core by type alone: its run-time access to core is the
// engine bundle, loaded lazily by src/host/engineLoader.ts. docs/architecture.md explains why.

import { builtinModules } from 'node:module';
import * as path from 'node:path';

/**
 * For each folder of src/: what it may import from src/ (folders, or single files ending in
 * .ts), what it may import for types only, and whether it may import npm packages, Node
 * built-ins and `vscode`.
 */
export const LAYERS = {
  domain: { may: ['domain'], typesOnly: [], packages: false, node: false, vscode: false },
  core: { may: ['domain', 'core'], typesOnly: [], packages: true, node: true, vscode: false },
  shared: { may: ['domain', 'shared'], typesOnly: [], packages: false, node: false, vscode: false },
  webview: {
    may: ['domain', 'shared/protocol.ts', 'webview', 'shared/metricsProtocol.ts'],
    typesOnly: [],
    packages: true,
    node: false,
    vscode: false,
  },
  host: { may: ['domain', 'shared', 'host'], typesOnly: ['core'], packages: true, node: true, vscode: true },
  cli: { may: ['domain', 'core', 'cli'], typesOnly: [], packages: true, node: true, vscode: false },
};

const NODE_BUILTINS = new Set(builtinModules);

function describe(layer) {
  const rule = LAYERS[layer];
  const parts = [...rule.may];
  if (rule.typesOnly.length) parts.push(`${rule.typesOnly.join(', ')} (types only)`);
  if (rule.packages) parts.push('npm packages');
  if (rule.node) parts.push('Node built-ins');
  if (rule.vscode) parts.push('vscode');
  return `src/${layer} may import only ${parts.join(', ')}`;
}

function matches(entry, rel) {
  if (entry.endsWith('.ts')) return rel === entry || `${rel}.ts` === entry;
  return rel === entry || rel.startsWith(`${entry}/`);
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Keep the layers of src/ (domain, core, shared, webview, host, cli) in their import direction.',
    },
    schema: [],
    messages: {
      forbidden: '{{allowed}}; "{{spec}}" is {{what}}{{how}}. See docs/architecture.md ("Layers").',
      unknownLayer: 'Every file of src/ belongs to one layer folder ({{layers}}); "{{file}}" does not.',
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const srcRoot = path.join(context.cwd ?? context.getCwd(), 'src');
    const fromSrc = path.relative(srcRoot, filename);
    if (fromSrc.startsWith('..') || path.isAbsolute(fromSrc)) return {};
    const layer = fromSrc.split(path.sep)[0];
    const rule = LAYERS[layer];
    if (!rule) {
      return {
        Program(node) {
          context.report({
            node,
            messageId: 'unknownLayer',
            data: { layers: Object.keys(LAYERS).join(', '), file: fromSrc },
          });
        },
      };
    }

    function check(node, spec, typeOnly) {
      if (typeof spec !== 'string') return;
      const how = typeOnly ? ' (a type-only import counts too)' : '';
      const report = (what) =>
        context.report({ node, messageId: 'forbidden', data: { allowed: describe(layer), spec, what, how } });
      if (spec.startsWith('.')) {
        const target = path
          .relative(srcRoot, path.resolve(path.dirname(filename), spec))
          .split(path.sep)
          .join('/');
        if (target.startsWith('..') || path.isAbsolute(target)) return report('outside src/');
        if (rule.may.some((entry) => matches(entry, target))) return;
        if (typeOnly && rule.typesOnly.some((entry) => matches(entry, target))) return;
        return report(`in src/${target.split('/')[0]}`);
      }
      if (spec === 'vscode') return rule.vscode ? undefined : report('the VS Code API');
      if (spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]))
        return rule.node ? undefined : report('a Node built-in');
      return rule.packages ? undefined : report('an npm package');
    }

    const allTypes = (specifiers, kind) => specifiers.length > 0 && specifiers.every((s) => s[kind] === 'type');
    return {
      ImportDeclaration(node) {
        check(node, node.source.value, node.importKind === 'type' || allTypes(node.specifiers, 'importKind'));
      },
      ExportNamedDeclaration(node) {
        if (node.source)
          check(node, node.source.value, node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind'));
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, false);
      },
      TSImportType(node) {
        const arg = node.argument;
        const literal = arg?.type === 'TSLiteralType' ? arg.literal : arg;
        if (literal?.type === 'Literal') check(node, literal.value, true);
      },
      TSExternalModuleReference(node) {
        if (node.expression.type === 'Literal') check(node, node.expression.value, false);
      },
      CallExpression(node) {
        const [arg] = node.arguments;
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && arg?.type === 'Literal')
          check(node, arg.value, false);
      },
    };
  },
};
