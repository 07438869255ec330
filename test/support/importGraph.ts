// The import graph of src/ between its layer folders, read with TypeScript's own import scanner:
// static imports, `import type`, `export … from`, `import()` and `require()` all count.

import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export type FolderGraph = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Relative specifiers each file of `srcRoot` imports (type-only ones included). */
export function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

/** folder → imported folder → the files that make that import ("core/agent/ledger.ts → ../../domain/types"). */
export function folderGraph(srcRoot: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(srcRoot)) {
    const rel = path.relative(srcRoot, file).split(path.sep).join('/');
    const from = rel.split('/')[0];
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const spec of importsOf(file)) {
      const target = path
        .relative(srcRoot, path.resolve(path.dirname(file), spec))
        .split(path.sep)
        .join('/');
      const to = target.startsWith('..') ? `outside src (${target})` : target.split('/')[0];
      if (to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${rel} → ${spec}`]);
    }
  }
  return graph;
}

/** A cycle of folders (first = last), or undefined when the graph has none. */
export function findCycle(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
