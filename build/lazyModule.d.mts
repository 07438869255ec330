// Types of lazyModule.mjs, for TypeScript callers (bench/cliStartBench.ts builds a variant of the CLI bundle with it).
import type { Plugin } from 'esbuild';

export function lazyModule(packages: string[]): Plugin;
