// A backend is one build of the rank core (Wasm, or the JS build of the same source) behind one small
// interface. Views are made fresh on request: Wasm memory may grow during `run`, detaching old views.
import { Buf } from '../../assembly/layout.ts';
import { instantiate } from '../../build/rank.js';

export interface CoreBackend {
  readonly kind: 'wasm' | 'js';
  prepare(n: number, nPrev: number, roleCount: number, tagCount: number, tokenCount: number, goalCount: number, emitFeatures: number): void;
  /** After `prepare`, with a goal and an embedding table: room for its token ids. */
  prepareEmbed(ids: number): void;
  /** Room for a goal-embedding table the core holds across requests (the door then fills EMB_TABLE and
   *  EMB_TABLE_SCALES), for `slots` cosines and `sums` token sums it keeps (powers of two); ends any
   *  request in progress. `tag` names it (tableTag()). */
  loadTable(size: number, dim: number, tag: number, slots: number, sums: number): void;
  /** The tag of the table the core holds (0: none). */
  tableTag(): number;
  run(): number;
  f64(buf: Buf): Float64Array;
  i32(buf: Buf): Int32Array;
  i8(buf: Buf): Int8Array;
  /** Palette names, index = the core's colour code. */
  readonly colorNames: readonly string[];
}

type WasmExports = Awaited<ReturnType<typeof instantiate>>;

function paletteOf(colorCount: () => number, colorName: (i: number) => string): string[] {
  return Array.from({ length: colorCount() }, (_, i) => colorName(i));
}

export function wasmBackend(exports: WasmExports): CoreBackend {
  const { memory } = exports;
  return {
    kind: 'wasm',
    prepare: (n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures) => exports.prepare(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures),
    prepareEmbed: (ids) => exports.prepareEmbed(ids),
    loadTable: (size, dim, tag, slots, sums) => exports.loadTable(size, dim, tag, slots, sums),
    tableTag: () => exports.tableTag(),
    run: () => exports.run(),
    f64: (buf) => new Float64Array(memory.buffer, exports.bufferPtr(buf), exports.bufferBytes(buf) >> 3),
    i32: (buf) => new Int32Array(memory.buffer, exports.bufferPtr(buf), exports.bufferBytes(buf) >> 2),
    i8: (buf) => new Int8Array(memory.buffer, exports.bufferPtr(buf), exports.bufferBytes(buf)),
    colorNames: paletteOf(exports.colorCount, exports.colorName),
  };
}

/** Instantiates the core from a compiled module (works in Node, pages, and MV3 service workers). */
export async function instantiateCore(module: WebAssembly.Module): Promise<CoreBackend> {
  const exports = await instantiate(module, {
    env: { abort: () => { throw new Error('rank core aborted'); } },
  });
  return wasmBackend(exports);
}
