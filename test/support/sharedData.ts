// ../shared/data (the shared corpora, outside the repository), reached by path and never copied.
// A test that needs it skips, saying what is missing and where it looked, when it is absent (a
// clone without ../shared). EVIDENT_SHARED_DATA points it elsewhere: run the tests with it set to
// an empty folder to see every such test skip with its reason.

import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const SHARED_DATA = process.env.EVIDENT_SHARED_DATA
  ? path.resolve(process.env.EVIDENT_SHARED_DATA)
  : path.resolve(__dirname, '../../../shared/data');
export const CORPORA = path.join(SHARED_DATA, 'corpora');

/** Why a test of these shared corpora cannot run here, or undefined when they are all present. */
export function corporaMissing(names: readonly string[]): string | undefined {
  const missing = names.filter((name) => !existsSync(path.join(CORPORA, name)));
  return missing.length ? `the shared corpora (${missing.join(', ')}) are not at ${CORPORA}` : undefined;
}

/** A describe block over shared corpora, or a skipped one whose title says why. */
export function describeWithCorpora(names: readonly string[], title: string, body: (this: Mocha.Suite) => void): void {
  const reason = corporaMissing(names);
  if (!reason) describe(title, body);
  // CI (EVIDENT_REQUIRE_SHARED_DATA=1, .ci/run) has them: their absence there fails instead of skipping.
  else if (process.env.EVIDENT_REQUIRE_SHARED_DATA === '1') {
    describe(title, () =>
      it('has the shared corpora it needs', () => assert.fail(`${reason} (EVIDENT_REQUIRE_SHARED_DATA=1)`)),
    );
  } else describe.skip(`${title} (skipped: ${reason})`, body);
}
