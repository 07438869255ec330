// Checks of one page run in order, each building on the ones before: a check whose prerequisite
// failed stops at once with "not run: needs …" instead of failing for a reason of its own.
// Call inside a `describe`: it records which checks of that block passed.

export function checksInOrder(): { needs(...titles: string[]): void } {
  const passed = new Set<string>();
  afterEach(function () {
    if (this.currentTest?.state === 'passed') passed.add(this.currentTest.title);
  });
  return {
    needs(...titles: string[]): void {
      const missing = titles.filter((c) => !passed.has(c));
      if (missing.length > 0)
        throw new Error(`not run: needs the check(s) "${missing.join('", "')}", which did not pass`);
    },
  };
}
