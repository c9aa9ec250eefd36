// Ids that stay the same for the same DOM node across snapshots: a WeakMap in the page, nothing written
// into the DOM. It lives on the window the collector runs in; same-origin frames are walked from there,
// so their nodes share its numbering. Cross-origin frames have their own (the client offsets their ids).

interface Registry {
  ids: WeakMap<Element, number>;
  nodes: Map<number, WeakRef<Element>>;
  next: number;
}

const KEY = '__sightlineRegistry';

function registry(): Registry {
  const host = window as unknown as Record<string, Registry | undefined>;
  return (host[KEY] ??= { ids: new WeakMap(), nodes: new Map(), next: 1 });
}

export function idOf(el: Element): number {
  const r = registry();
  let id = r.ids.get(el);
  if (id === undefined) {
    id = r.next++;
    r.ids.set(el, id);
    r.nodes.set(id, new WeakRef(el));
  } else if (!r.nodes.has(id)) {
    r.nodes.set(id, new WeakRef(el)); // pruned while detached, now back in the DOM
  }
  return id;
}

/** The live node for an id, or null once it left the DOM or was collected. */
export function resolve(id: number): Element | null {
  const el = registry().nodes.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

/** Drops entries whose node is gone, so a long-lived page does not grow the map forever. */
export function prune(): void {
  const r = registry();
  for (const [id, ref] of r.nodes) if (!ref.deref()?.isConnected) r.nodes.delete(id);
}

/** Numbers new ids from `n` on when the registry has not reached it (a new document of the same tab). */
export function continueFrom(n: number): void {
  const r = registry();
  if (r.next < n) r.next = n;
}
