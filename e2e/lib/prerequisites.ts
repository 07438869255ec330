// Checks that run in order on one page: a check whose prerequisite failed stops with
// "not run: needs …" instead of failing confusingly on the state the earlier check left.

/** Records the checks of this `describe` that passed; `needs(...)` throws unless all named ones did. */
export function prerequisites(): (...checks: string[]) => void {
  const passed = new Set<string>();
  afterEach(function () {
    if (this.currentTest?.state === 'passed') passed.add(this.currentTest.title);
  });
  return (...checks) => {
    const missing = checks.filter((c) => !passed.has(c));
    if (missing.length > 0) throw new Error(`not run: needs the check(s) "${missing.join('", "')}", which did not pass`);
  };
}
