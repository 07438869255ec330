// A message for the user from anything thrown (pure: the host classes tested in plain Node use it).

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
