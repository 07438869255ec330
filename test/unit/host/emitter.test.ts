// The host's vscode-shaped event source (src/host/emitter.ts): listeners hear each event in
// order, with their `this`; a subscription disposed (or pushed to a disposables list) stops
// hearing; one listener that throws does not keep the others from hearing.

import { strict as assert } from 'node:assert';
import { Emitter, type Disposable } from '../../../src/host/emitter';

describe('host event emitter', () => {
  it('delivers each event to every listener in order, with its this, until it is disposed', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    const owner = {
      name: 'owner',
      hear(this: { name: string }, n: number) {
        heard.push(`${this.name}:${n}`);
      },
    };
    const disposables: Disposable[] = [];
    const first = emitter.event((n) => heard.push(`first:${n}`));
    emitter.event(owner.hear, owner, disposables);
    emitter.fire(1);
    first.dispose();
    emitter.fire(2);
    assert.equal(disposables.length, 1);
    for (const d of disposables) d.dispose();
    emitter.fire(3);
    assert.deepEqual(heard, ['first:1', 'owner:1', 'owner:2']);
  });

  it('a listener that throws does not keep the others from hearing; dispose drops every listener', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    const error = console.error;
    const logged: unknown[] = [];
    console.error = (e: unknown) => void logged.push(e);
    try {
      emitter.event(() => {
        throw new Error('listener broke');
      });
      emitter.event((s) => heard.push(s));
      emitter.fire('a');
    } finally {
      console.error = error;
    }
    assert.deepEqual(heard, ['a']);
    assert.equal((logged[0] as Error).message, 'listener broke');
    emitter.dispose();
    emitter.fire('b');
    assert.deepEqual(heard, ['a']);
  });
});
