// Debug overlay: each ranked element's box and id drawn over the page (document coordinates, so it
// stays aligned while scrolling). Used by the client library and the extension through __sightline.

export interface Box { id: number; x: number; y: number; w: number; h: number; occluded: boolean }

const LAYER_ID = '__sightline_highlight';

/** Boxes for ranked elements (SPEC snapshot elements). */
export function boxesOf(elements: { id: number; bbox: { x: number; y: number; width: number; height: number }; doc_y?: number | null; is_occluded: boolean }[]): Box[] {
  return elements.map((e) => ({
    id: e.id, x: e.bbox.x, y: (e.doc_y ?? e.bbox.y + e.bbox.height / 2) - e.bbox.height / 2,
    w: e.bbox.width, h: e.bbox.height, occluded: e.is_occluded,
  }));
}

export function drawHighlight(items: Box[]): void {
  clearHighlight();
  const layer = document.createElement('div');
  layer.id = LAYER_ID;
  layer.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
  for (const b of items) {
    const box = document.createElement('div');
    const colour = b.occluded ? '#d33' : '#1a73e8';
    box.style.cssText = `position:absolute;left:${b.x + scrollX}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;outline:2px solid ${colour};box-sizing:border-box`;
    const label = document.createElement('span');
    label.textContent = String(b.id);
    label.style.cssText = `position:absolute;left:0;top:-16px;font:11px/14px monospace;background:${colour};color:#fff;padding:0 3px`;
    box.append(label);
    layer.append(box);
  }
  document.documentElement.append(layer);
}

export function clearHighlight(): void {
  document.getElementById(LAYER_ID)?.remove();
}
