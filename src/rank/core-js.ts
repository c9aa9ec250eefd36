// The JS build of the rank core: the AssemblyScript source run as plain JavaScript (portable mode).
// It is the parity oracle for tests and the baseline for benchmarks, not the production path: the
// portable runtime defines AssemblyScript's builtins (i32, unchecked, ...) on globalThis.
import 'assemblyscript/std/portable/index.js';
import type { Buf } from '../../assembly/layout.ts';
import * as core from '../../assembly/portable.ts';
import type { CoreBackend } from './backend.ts';
import { loadEmbedTable } from './embed-node.ts';

export function jsBackend(): CoreBackend {
  loadEmbedTable();
  return {
    kind: 'js',
    prepare: (n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures) => core.prepare(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures),
    prepareEmbed: (ids) => core.prepareEmbed(ids),
    loadTable: (size, dim, tag, slots, sums) => core.loadTable(size, dim, tag, slots, sums),
    tableTag: () => core.tableTag(),
    run: () => core.run(),
    f64: (buf: Buf) => core.buffer(buf) as Float64Array,
    i32: (buf: Buf) => core.buffer(buf) as Int32Array,
    i8: (buf: Buf) => core.buffer(buf) as Int8Array,
    colorNames: Array.from({ length: core.colorCount() }, (_, i) => core.colorName(i)),
  };
}
