// Notices and errors as they cross the index worker's boundary: a notice arrives as a notice (a
// known code and a text) or the message is refused; an error keeps its name, message and code.

import { strict as assert } from 'node:assert';
import { fromWorkerError, isFromWorker, toWorkerError } from '../../../../src/core/indexWorker/messages';
import { lexicalOnlyNotice, notice } from '../../../../src/domain/notices';

const status = {
  indexed: true,
  documents: 1,
  passages: 2,
  embeddingModel: null,
  mode: 'lexical',
  embedder: 'unavailable',
};

describe('index worker messages: notices and error codes at the boundary', () => {
  it('takes the open notices and the lexical-only reason as notices, and refuses strings or unknown codes', () => {
    const damaged = notice(
      'lexical-index-damaged',
      'The lexical index is damaged (x): rebuilding it from the stored passages.',
    );
    assert.equal(isFromWorker({ type: 'ready', status, openNotices: [damaged] }), true);
    assert.equal(
      isFromWorker({
        type: 'ready',
        status: { ...status, embedderProblem: lexicalOnlyNotice('no model here') },
        openNotices: [],
      }),
      true,
    );
    assert.equal(
      isFromWorker({ type: 'ready', status, openNotices: [damaged.text] }),
      false,
      'a notice without its code',
    );
    assert.equal(
      isFromWorker({ type: 'ready', status, openNotices: [{ code: 'lexical', text: 'x' }] }),
      false,
      'a code not on the list',
    );
    assert.equal(
      isFromWorker({
        type: 'status',
        status: { ...status, embedderProblem: 'No embedding model (x): retrieval is lexical only.' },
      }),
      false,
    );
  });

  it("an error keeps its name, message and code across (an AbortError stays one; a code of ours or Node's survives)", () => {
    const abort = Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
    assert.equal(fromWorkerError(toWorkerError(abort)).name, 'AbortError');
    const enospc = fromWorkerError(
      toWorkerError(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
    ) as NodeJS.ErrnoException;
    assert.equal(enospc.code, 'ENOSPC');
    assert.equal(enospc.message, 'ENOSPC: no space left on device');
    assert.deepEqual(toWorkerError('thrown text'), { name: 'Error', message: 'thrown text' });
  });
});
