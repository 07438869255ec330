// JSON Lines input with errors that name the file and line, and a runtime shape check per
// record, so that a malformed line is reported instead of crashing a batch halfway.

import { readFile } from 'node:fs/promises';

export class JsonlError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }
}

/** A field check: returns an error message, or undefined when the record is acceptable. */
export function parseJsonl<T>(
  text: string,
  file: string,
  check: (value: Record<string, unknown>) => string | undefined,
): T[] {
  const records: T[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new JsonlError(file, index + 1, `not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new JsonlError(file, index + 1, 'expected a JSON object');
    }
    const problem = check(value as Record<string, unknown>);
    if (problem) throw new JsonlError(file, index + 1, problem);
    records.push(value as T);
  });
  return records;
}

export async function readJsonl<T>(
  file: string,
  check: (value: Record<string, unknown>) => string | undefined,
): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new JsonlError(
      file,
      0,
      code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? (error as Error).message})`,
    );
  }
  return parseJsonl<T>(text, file, check);
}

/** Small helpers for `check` functions. */
export function requireString(value: Record<string, unknown>, key: string): string | undefined {
  return typeof value[key] === 'string' && (value[key] as string).trim().length > 0
    ? undefined
    : `"${key}" must be a non-empty string`;
}

export function requireStringArray(value: Record<string, unknown>, key: string): string | undefined {
  const v = value[key];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : `"${key}" must be an array of strings`;
}
