import { strict as assert } from 'node:assert';
import { Safetensors, transpose } from '../../../../tools/model/safetensors';

/** A safetensors file from tensors given as name → [dtype, shape, float values]. */
function file(
  tensors: Record<string, { dtype: string; shape: number[]; values: number[] }>,
  extraHeader: Record<string, unknown> = {},
): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' }, ...extraHeader };
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const [name, t] of Object.entries(tensors)) {
    const bytes = new Uint8Array(new Float32Array(t.values).buffer);
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + bytes.byteLength] };
    offset += bytes.byteLength;
    parts.push(bytes);
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.byteLength), true);
  out.set(json, 8);
  let at = 8 + json.byteLength;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

describe('safetensors reader (tools/model/safetensors.ts)', () => {
  const bytes = file({
    a: { dtype: 'F32', shape: [2, 3], values: [1, 2, 3, 4, 5, 6] },
    b: { dtype: 'F32', shape: [1], values: [-0.5] },
  });

  it('reads each tensor at its offsets, as float32 little-endian', () => {
    const t = Safetensors.parse(bytes);
    assert.deepEqual([...t.float32('a', [2, 3])], [1, 2, 3, 4, 5, 6]);
    assert.deepEqual([...t.float32('b', [1])], [-0.5]);
  });

  it('refuses a missing tensor, another dtype or another shape by name', () => {
    const t = Safetensors.parse(
      file({
        i: { dtype: 'I64', shape: [1], values: [0, 0] },
        a: { dtype: 'F32', shape: [2, 3], values: [1, 2, 3, 4, 5, 6] },
      }),
    );
    assert.throws(() => t.float32('missing', [1]), /no tensor named missing/);
    assert.throws(() => t.float32('i', [1]), /i is I64, expected F32/);
    assert.throws(() => t.float32('a', [3, 2]), /a has shape \[2, 3\], expected \[3, 2\]/);
  });

  it('refuses a truncated file, a header that is not JSON and offsets outside the file', () => {
    assert.throws(() => Safetensors.parse(new Uint8Array(4)), /shorter than its 8-byte header length/);
    assert.throws(() => Safetensors.parse(bytes.subarray(0, 20)), /header length/);
    const broken = bytes.slice();
    broken[8] = 0x7b + 1; // the header's first byte no longer opens an object
    assert.throws(() => Safetensors.parse(broken), /header is not JSON/);
    assert.throws(
      () => Safetensors.parse(bytes.subarray(0, bytes.byteLength - 4)),
      /b has a malformed entry or lies outside the file/,
    );
  });

  it('transposes [out, in] into [in, out]', () => {
    assert.deepEqual([...transpose(new Float32Array([1, 2, 3, 4, 5, 6]), 2, 3)], [1, 4, 2, 5, 3, 6]);
  });
});
