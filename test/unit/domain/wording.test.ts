import * as assert from 'node:assert/strict';
import { counted } from '../../../src/domain/wording';

describe('counts in sentences', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    assert.equal(counted(1, 'document'), '1 document');
    assert.equal(counted(0, 'document'), '0 documents');
    assert.equal(counted(2, 'passage'), '2 passages');
    assert.equal(counted(1, 'file was', 'files were'), '1 file was');
    assert.equal(counted(3, 'file was', 'files were'), '3 files were');
  });
});
