// The collection's in-process wire (issue 43): what crosses from the page to Node in collectPage. The
// CollectResult as JSON repeats every key of every element and its derived numbers; most of a page's 80 KB
// was keys, style values and numbers the decoder can recompute. Here each element is a run of a flat array:
// strings (tags, texts, style values, attribute names and values) as indexes into a table of distinct
// strings, the box as four numbers, the flags as one. center_x, center_y, doc_y and scroll_y are not sent:
// describe() derives them from the box and the page's scroll, and wireToResult derives them again with the
// same arithmetic (the same doubles). A collection that breaks those invariants is sent as plain JSON.
// encode runs in the page (bundled into the collector); decode runs in Node. Neither changes a value: the
// decoded result equals collect()'s, key order included (test/collect-wire.test.ts).
import type { CollectResult, CollectedElement } from './types.ts';

/** Bumped when the layout below changes (the collector and its decoder ship together; a mismatch is refused). */
const WIRE = 1;
const IN_VIEWPORT = 1, OCCLUDED = 2, LISTED = 4;
const STYLE_KEYS = ['z_index', 'cursor', 'bg_color', 'display', 'visibility', 'opacity', 'position'] as const;

/** The derived fields are exactly what describe() computes from the box and the page's scroll. */
const derivable = (e: CollectedElement, scrollY: number) => {
  const cx = e.rect.x + e.rect.width / 2, cy = e.rect.y + e.rect.height / 2;
  return e.scroll_y === scrollY && e.center_x === cx && e.center_y === cy && e.doc_y === cy + scrollY;
};

/** The collection as one string: the wire form, or plain JSON when an element's derived fields cannot be
 *  derived again (NaN boxes: JSON would turn them into null). */
export function resultToWire(result: CollectResult): string {
  const { raw_elements: elements, ...rest } = result;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const str = (s: string) => {
    let i = index.get(s);
    if (i === undefined) { i = strings.length; strings.push(s); index.set(s, i); }
    return i;
  };
  const flat: number[] = [];
  for (const e of elements) {
    if (!derivable(e, result.scroll_y)) return JSON.stringify(result);
    const listed = e.list_id !== undefined;
    flat.push(e.id, str(e.tag), e.rect.x, e.rect.y, e.rect.width, e.rect.height, str(e.text),
      (e.in_viewport ? IN_VIEWPORT : 0) | (e.is_occluded ? OCCLUDED : 0) | (listed ? LISTED : 0));
    for (const k of STYLE_KEYS) flat.push(str(e.styles[k]));
    const keys = Object.keys(e.attributes);
    flat.push(keys.length);
    for (const k of keys) flat.push(str(k), str(e.attributes[k]));
    if (listed) flat.push(e.list_id!, e.list_index!, e.list_length!);
  }
  return JSON.stringify([WIRE, rest, strings, elements.length, flat]);
}

/** The CollectResult resultToWire was given, from its string. */
export function wireToResult(wire: string): CollectResult {
  const parsed = JSON.parse(wire) as unknown;
  if (!Array.isArray(parsed)) return parsed as CollectResult;
  const [version, rest, strings, count, flat] = parsed as [number, Omit<CollectResult, 'raw_elements'>, string[], number, number[]];
  if (version !== WIRE) throw new Error(`collector wire ${version}, this decoder reads ${WIRE}`);
  const scrollY = rest.scroll_y;
  const raw_elements: CollectedElement[] = new Array(count);
  let at = 0;
  for (let n = 0; n < count; n++) {
    const id = flat[at], tag = strings[flat[at + 1]];
    const x = flat[at + 2], y = flat[at + 3], width = flat[at + 4], height = flat[at + 5];
    const text = strings[flat[at + 6]], flags = flat[at + 7];
    at += 8;
    const styles = {
      z_index: strings[flat[at]], cursor: strings[flat[at + 1]], bg_color: strings[flat[at + 2]], display: strings[flat[at + 3]],
      visibility: strings[flat[at + 4]], opacity: strings[flat[at + 5]], position: strings[flat[at + 6]],
    };
    at += 7;
    const attributes: Record<string, string> = {};
    for (let k = flat[at++]; k > 0; k--, at += 2) attributes[strings[flat[at]]] = strings[flat[at + 1]];
    const centerX = x + width / 2, centerY = y + height / 2;
    const e: CollectedElement = {
      id, tag, rect: { x, y, width, height }, text,
      in_viewport: (flags & IN_VIEWPORT) !== 0, is_occluded: (flags & OCCLUDED) !== 0,
      scroll_y: scrollY, center_x: centerX, center_y: centerY, doc_y: centerY + scrollY,
      styles, attributes,
    };
    if (flags & LISTED) { e.list_id = flat[at]; e.list_index = flat[at + 1]; e.list_length = flat[at + 2]; at += 3; }
    raw_elements[n] = e;
  }
  const { url, viewport, scroll_y, client_metrics, client_diagnostics, frames, truncated, fading, collect_ms } = rest;
  return { url, viewport, scroll_y, raw_elements, client_metrics, client_diagnostics, frames, truncated, fading, collect_ms };
}
