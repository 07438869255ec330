// Small typed arrays handed out as views of shared slabs. A typed array of more than 64 bytes
// gets a buffer of its own outside V8's heap (a system allocation, and memory the garbage
// collector has to account for and free); a passage's token table is a few kilobytes and each
// first-seen passage needs one. A view of a slab costs an object on the heap: the slab is
// allocated once per many passages and freed when no view of it is left. A slab is at most
// SLAB_BYTES (unless one array needs more), so a view that outlives the others keeps at most
// that much alive.

const SLAB_BYTES = 64 * 1024;

/** Hands out zero-filled arrays of one element type, each a view of the current slab. */
export class Slab<T extends Int32Array | Uint8Array> {
  private buffer: T;
  private used = 0;

  constructor(private readonly make: (length: number) => T) {
    this.buffer = make(0);
  }

  /**
   * Room for up to `max` elements at the end of the current slab (a new slab when it has less):
   * write into `room`, then `take` the elements used. Nothing else may be asked in between.
   */
  reserve(max: number): T {
    if (this.buffer.length - this.used < max) {
      const elements = SLAB_BYTES / this.buffer.BYTES_PER_ELEMENT;
      this.buffer = this.make(Math.max(elements, max));
      this.used = 0;
    }
    return this.buffer;
  }

  /** Where the room given by `reserve` starts in its slab. */
  get offset(): number {
    return this.used;
  }

  /** The first `length` elements of the room given by `reserve`, kept: later rooms start after them. */
  take(length: number): T {
    const view = this.buffer.subarray(this.used, this.used + length) as T;
    this.used += length;
    return view;
  }

  /** A zero-filled array of `length` elements. */
  array(length: number): T {
    this.reserve(length);
    return this.take(length);
  }
}
