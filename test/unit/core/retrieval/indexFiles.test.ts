import { strict as assert } from 'node:assert';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from '../../../../src/core/retrieval/indexFiles';
import { removeDir, tempDir } from '../../../support/workspace';

describe('index files: written whole through a temporary file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir('evident-files-');
  });
  afterEach(async () => removeDir(dir));

  it('writes a list of parts as one file, in order, and counts its bytes (multi-byte text included)', async () => {
    const parts = ['{"a":"café"}\n', '', '{"b":"日本語"}\n', 'x'.repeat(70_000)];
    const ref = await writeFileAtomic(dir, 'passages-1.jsonl', parts);
    const bytes = await readFile(path.join(dir, 'passages-1.jsonl'));
    assert.equal(bytes.toString('utf8'), parts.join(''));
    assert.equal(ref.bytes, bytes.length);
    assert.deepEqual(await readdir(dir), ['passages-1.jsonl'], 'no temporary file stays');
  });
});
