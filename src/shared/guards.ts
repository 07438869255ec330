// Small runtime type guards for data that crosses a trust boundary (webview messages,
// persisted history, tool-call arguments). Each returns a boolean and never throws.

export type Guard<T> = (value: unknown) => value is T;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isNonNegativeInteger(value: unknown): value is number {
  return isFiniteNumber(value) && Number.isInteger(value) && value >= 0;
}

export function isArrayOf<T>(value: unknown, item: Guard<T>): value is T[] {
  return Array.isArray(value) && value.every((v) => item(v));
}

export function isOneOf<T extends string>(values: readonly T[]): Guard<T> {
  return (value: unknown): value is T => typeof value === 'string' && (values as readonly string[]).includes(value);
}

export function isOptional<T>(item: Guard<T>): Guard<T | undefined> {
  return (value: unknown): value is T | undefined => value === undefined || item(value);
}

/** A guard for an object whose listed fields each pass their guard (extra fields allowed). */
export function isShape<T>(fields: { [K in keyof T]-?: Guard<T[K]> }): Guard<T> {
  const entries = Object.entries(fields) as [string, Guard<unknown>][];
  return (value: unknown): value is T => isRecord(value) && entries.every(([key, guard]) => guard(value[key]));
}
