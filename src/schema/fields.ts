// Never a silent drop: a request field the schema does not have where it was sent, or one that does not
// apply to the chosen mode, is named in the answer's `warnings` with where it belongs. Everything is
// read from the typebox schemas themselves (their properties and an `x-modes` note on a field), so a
// field added to a schema is covered with no list to keep. Unknown fields are still accepted and ignored
// (SPEC: the server accepts extra fields; docs/decisions.md "Unknown and misplaced fields").
import type { TSchema } from 'typebox';

/** The schema note naming the observe modes a field applies to; absent: every mode. */
export const MODES_KEY = 'x-modes';

/** Marks a field schema as applying only to these modes (kept in the schema, and so in OpenAPI). */
export function forModes<T extends TSchema>(modes: readonly string[], schema: T): T {
  return Object.assign(schema, { [MODES_KEY]: [...modes] });
}

interface ObjectSchema { type: 'object'; properties: Record<string, TSchema>; additionalProperties?: unknown }
type Node = Record<string, unknown>;

const isObjectSchema = (s: unknown): s is ObjectSchema => (s as Node | undefined)?.type === 'object' && typeof (s as Node).properties === 'object';

/** The object schemas a field schema may be (through unions, intersections and nullables), never arrays. */
function objectsOf(schema: TSchema | undefined): ObjectSchema[] {
  if (!schema) return [];
  if (isObjectSchema(schema)) return [schema];
  const s = schema as Node;
  const parts = (s.anyOf ?? s.allOf ?? s.oneOf) as TSchema[] | undefined;
  return parts ? parts.flatMap(objectsOf) : [];
}

const modesOf = (schema: TSchema | undefined): string[] | undefined => (schema as Node | undefined)?.[MODES_KEY] as string[] | undefined;

interface Place { path: string; modes?: string[] }

/** Every field name of the schema with the places it is defined (outside arrays, whose items are data). */
function index(root: TSchema): Map<string, Place[]> {
  const places = new Map<string, Place[]>();
  const walk = (schema: TSchema, prefix: string, seen: Set<unknown>) => {
    for (const object of objectsOf(schema)) {
      if (seen.has(object)) continue;
      seen.add(object);
      for (const [name, field] of Object.entries(object.properties)) {
        const path = prefix ? `${prefix}.${name}` : name;
        const list = places.get(name) ?? [];
        list.push({ path, modes: modesOf(field) });
        places.set(name, list);
        walk(field, path, seen);
      }
    }
  };
  walk(root, '', new Set());
  return places;
}

/** Edit distance with adjacent swaps, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest of `names` to `name`, if close enough to be a typo. */
export function nearest(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const candidate of names) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestD) { best = candidate; bestD = d; }
  }
  return bestD <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

const indexes = new WeakMap<TSchema, Map<string, Place[]>>();
const at = (place: Place) => `\`${place.path}\`${place.path.includes('.') ? '' : ' (top level)'}`;
const fits = (place: Place, mode?: string) => !mode || !place.modes || place.modes.includes(mode);

/**
 * Warnings for the fields of `body` that `schema` does not read: unknown or misplaced fields (with the
 * place the field belongs, or the nearest name when it looks mistyped) and, given `mode`, fields whose
 * `x-modes` leave that mode out. Objects whose schema sets `additionalProperties: true` take extra
 * fields by design and are not looked into; nor are arrays (their items are data, e.g. raw elements).
 */
export function fieldWarnings(schema: TSchema, body: unknown, mode?: string): string[] {
  let places = indexes.get(schema);
  if (!places) indexes.set(schema, places = index(schema));
  const warnings: string[] = [];
  const visit = (field: TSchema, value: unknown, prefix: string) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const objects = objectsOf(field);
    if (objects.length === 0 || objects.some((o) => o.additionalProperties === true)) return;
    const known = new Map<string, TSchema>();
    for (const o of objects) for (const [k, v] of Object.entries(o.properties)) known.set(k, v);
    for (const [name, inner] of Object.entries(value as Node)) {
      if (inner === undefined || inner === null) continue; // null: absent, as everywhere in the API
      const path = prefix ? `${prefix}.${name}` : name;
      const own = known.get(name);
      if (own) {
        const modes = modesOf(own);
        if (mode && modes && !modes.includes(mode)) {
          const elsewhere = places.get(name)?.find((p) => p.path !== path && fits(p, mode));
          warnings.push(`ignored_field: \`${path}\` does not apply to mode ${mode} (only ${modes.join(' and ')})${elsewhere ? `; for ${mode} it belongs at ${at(elsewhere)}` : ''}`);
          continue;
        }
        visit(own, inner, path);
        continue;
      }
      const all = places.get(name) ?? [];
      const elsewhere = all.some((p) => fits(p, mode)) ? all.filter((p) => fits(p, mode)) : all;
      if (elsewhere.length) {
        warnings.push(`ignored_field: \`${path}\` belongs at ${elsewhere.map((p) => `${at(p)}${fits(p, mode) ? '' : ` (mode ${p.modes!.join(' and ')})`}`).join(' or ')}`);
        continue;
      }
      const typo = nearest(name, known.keys());
      warnings.push(`ignored_field: \`${path}\` is not a known field${typo ? ` (did you mean \`${prefix ? `${prefix}.` : ''}${typo}\`?)` : ''}`);
    }
  };
  visit(schema, body, '');
  return warnings;
}
