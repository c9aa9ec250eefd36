// Finding elements in a rank result by what an agent knows of them: a role, some text (contained, or
// a regular expression), and where they are (near another element). No ranking here: matches keep
// the core's order, or come nearest first with `near`.
import type { RankResult, SnapshotElement } from '../schema/snapshot.ts';

export interface FindQuery {
  /** One role or any of several (the role words of the result: "button", "link", "textbox"...). */
  role?: string | string[];
  /** Text or accessible name: a string it contains (case-insensitive), or a regular expression. */
  text?: string | RegExp;
  /** Another element (its id in the same result, or the element): matches come nearest first. */
  near?: number | Pick<SnapshotElement, 'id' | 'bbox'>;
}

type Box = SnapshotElement['bbox'];
const center = (b: Box) => [b.x + b.width / 2, b.y + b.height / 2] as const;

function matchesText(e: SnapshotElement, text: string | RegExp): boolean {
  const fields = [e.text, e.name, e.value].filter((f): f is string => typeof f === 'string' && f !== '');
  if (typeof text === 'string') {
    const needle = text.toLowerCase();
    return fields.some((f) => f.toLowerCase().includes(needle));
  }
  return fields.some((f) => { text.lastIndex = 0; return text.test(f); });
}

/** Every element of `result` that fits the query (elements reported gone are left out). */
export function findAll(result: Pick<RankResult, 'elements'>, query: FindQuery): SnapshotElement[] {
  const roles = query.role === undefined ? undefined : new Set(Array.isArray(query.role) ? query.role : [query.role]);
  const anchor = typeof query.near === 'number' ? result.elements.find((e) => e.id === query.near) : query.near;
  if (query.near !== undefined && !anchor) throw new Error(`find: element ${String(query.near)} (near) is not in the result`);
  const found = result.elements.filter((e) => e.diff_status !== 'REMOVED'
    && (!roles || roles.has(e.role))
    && (query.text === undefined || matchesText(e, query.text))
    && e.id !== anchor?.id);
  if (!anchor) return found;
  const [ax, ay] = center(anchor.bbox);
  const distance = (e: SnapshotElement) => { const [x, y] = center(e.bbox); return Math.hypot(x - ax, y - ay); };
  return found.map((e) => ({ e, d: distance(e) })).sort((a, b) => a.d - b.d).map(({ e }) => e);
}

/** The first element that fits the query (the nearest with `near`), or undefined. */
export function find(result: Pick<RankResult, 'elements'>, query: FindQuery): SnapshotElement | undefined {
  return findAll(result, query)[0];
}
