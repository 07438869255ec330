// Reads a safetensors file: an 8-byte little-endian header length, a JSON header mapping each
// tensor name to {dtype, shape, data_offsets: [begin, end]} (offsets into the data after the
// header), then the raw little-endian data. Only what the model conversion needs: F32 tensors.

export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export class Safetensors {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly dataStart: number,
    readonly entries: ReadonlyMap<string, SafetensorsEntry>,
  ) {}

  static parse(bytes: Uint8Array): Safetensors {
    if (bytes.byteLength < 8) throw new Error('not a safetensors file: shorter than its 8-byte header length');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = Number(view.getBigUint64(0, true));
    if (headerLength <= 0 || 8 + headerLength > bytes.byteLength) {
      throw new Error(`not a safetensors file: header length ${headerLength} for ${bytes.byteLength} bytes`);
    }
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`not a safetensors file: its header is not JSON (${(error as Error).message})`);
    }
    const dataStart = 8 + headerLength;
    const entries = new Map<string, SafetensorsEntry>();
    for (const [name, value] of Object.entries(header)) {
      if (name === '__metadata__') continue;
      const entry = value as SafetensorsEntry;
      const [begin, end] = entry.data_offsets ?? [];
      if (
        typeof entry.dtype !== 'string' ||
        !Array.isArray(entry.shape) ||
        !Number.isInteger(begin) ||
        !Number.isInteger(end) ||
        begin > end ||
        dataStart + end > bytes.byteLength
      ) {
        throw new Error(`safetensors: tensor ${name} has a malformed entry or lies outside the file`);
      }
      entries.set(name, entry);
    }
    return new Safetensors(bytes, dataStart, entries);
  }

  /** The tensor's values as float32 (a copy, aligned), after checking its dtype and shape. */
  float32(name: string, shape: readonly number[]): Float32Array {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`safetensors: no tensor named ${name}`);
    if (entry.dtype !== 'F32') throw new Error(`safetensors: ${name} is ${entry.dtype}, expected F32`);
    if (entry.shape.length !== shape.length || entry.shape.some((d, i) => d !== shape[i])) {
      throw new Error(`safetensors: ${name} has shape [${entry.shape.join(', ')}], expected [${shape.join(', ')}]`);
    }
    const [begin, end] = entry.data_offsets;
    const count = shape.reduce((a, b) => a * b, 1);
    if (end - begin !== count * 4) {
      throw new Error(`safetensors: ${name} holds ${end - begin} bytes, expected ${count * 4}`);
    }
    const out = new Float32Array(count);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.dataStart + begin, end - begin);
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
}

/** [rows, cols] row-major → [cols, rows]: PyTorch's Linear weight [out, in] as MatMul's [in, out]. */
export function transpose(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = values[r * cols + c];
  return out;
}
