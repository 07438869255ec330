// An esbuild plugin that makes a package load on first use instead of at start: imports of it
// resolve to a small module whose exports are getters that require the real package when one of
// them is first read. The export names are read from the package at build time, so nothing the
// code imports can go missing. Used by the CLI bundle for @google/genai (with google-auth-library
// and ws, a third of a second of every start, while `--model extractive` never calls Gemini).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyModule(packages) {
  return {
    name: 'lazy-module',
    setup(build) {
      const filter = new RegExp(`^(${packages.map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})$`);
      build.onResolve({ filter }, (args) =>
        args.pluginData?.real ? undefined : { path: args.path, namespace: 'lazy-module' },
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-module' }, (args) => {
        const names = Object.keys(require(args.path)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
        const contents = [
          `let real;`,
          `const load = () => (real ??= require(${JSON.stringify(args.path)}));`,
          `Object.defineProperty(exports, '__esModule', { value: true });`,
          `for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
        ].join('\n');
        return { contents, loader: 'js', resolveDir: process.cwd(), pluginData: { real: true } };
      });
    },
  };
}
