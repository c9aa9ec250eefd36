// The ranked elements in SPEC's map shapes: the common one (ids 0..n-1 in result order) and the dom
// variant (`element_shape: "dom"`: uid, tag, selector, bbox {x, y, w, h}, is_visible, z_index).
import type { CollectedElement } from '../../collect/types.ts';
import type { DomElement, MapElement } from '../../schema/observe.ts';
import type { PageMap } from './map.ts';

export interface ShapeOptions {
  shape: 'common' | 'dom';
  visualCues: boolean;
  /** Attributes (placeholder and friends) on common elements: visual mode. */
  attributes: boolean;
}

const typeOf = (raw?: CollectedElement) => raw?.attributes.input_type ?? raw?.attributes.type_;

function attributesOf(raw?: CollectedElement): NonNullable<MapElement['attributes']> {
  const a = raw?.attributes ?? {};
  const out: NonNullable<MapElement['attributes']> = {};
  const type = typeOf(raw);
  if (type) out.type = type;
  for (const key of ['placeholder', 'aria_label', 'name', 'href', 'value'] as const) if (a[key]) out[key] = a[key];
  return out;
}

export function shapeElements(map: PageMap, options: ShapeOptions): MapElement[] | DomElement[] {
  const { elements } = map.ranked;
  if (options.shape === 'dom') {
    return elements.map((e): DomElement => {
      const raw = map.raw.get(e.id);
      const found = map.selectors.get(e.id);
      return {
        uid: String(e.id), tag: raw?.tag ?? '', selector: found?.selector ?? '', ...(found?.frames.length ? { frames: found.frames } : {}),
        bbox: { x: e.bbox.x, y: e.bbox.y, w: e.bbox.width, h: e.bbox.height },
        is_visible: e.in_viewport && !e.is_occluded, z_index: e.z_index,
        attributes: { type: typeOf(raw) ?? null, placeholder: raw?.attributes.placeholder ?? null, aria_label: raw?.attributes.aria_label ?? null },
        role: e.role, text: e.text, importance: e.importance,
      };
    });
  }
  return elements.map((e, i): MapElement => {
    const raw = map.raw.get(e.id);
    return {
      // A field shows no text of its own: its accessible name (label, placeholder) is what an agent reads.
      id: i, role: e.role, text: e.text || e.name || '', bbox: e.bbox, in_viewport: e.in_viewport, is_occluded: e.is_occluded, importance: e.importance,
      ...(e.ml_probability != null ? { ml_probability: e.ml_probability } : {}),
      ...(options.visualCues ? { visual_cues: { background_color_name: e.visual_cues.background_color_name, cursor_type: raw?.styles.cursor || 'auto', is_prominent: e.visual_cues.is_primary } } : {}),
      ...(options.attributes ? { attributes: attributesOf(raw) } : {}),
    };
  });
}
