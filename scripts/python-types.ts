// Writes the Python package's TypedDicts (clients/python/src/sightline/types.py) from the typebox
// schemas in src/schema, the single source of the API's shapes; run by scripts/build.js.
import { writeFileSync } from 'node:fs';
import * as snapshot from '../src/schema/snapshot.ts';
import * as observe from '../src/schema/observe.ts';
import * as usage from '../src/schema/usage.ts';

type Schema = { [k: string]: any };
const plain = (s: unknown): Schema => JSON.parse(JSON.stringify(s));
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && ('type' in v || 'allOf' in v || 'anyOf' in v);
const KEYWORDS = new Set(['class', 'def', 'from', 'import', 'global', 'lambda', 'pass', 'return', 'in', 'is', 'not', 'and', 'or', 'if', 'else', 'for', 'while', 'with', 'as', 'try', 'except', 'finally', 'raise', 'del', 'yield', 'assert', 'break', 'continue', 'async', 'await', 'None', 'True', 'False', 'nonlocal', 'elif']);
const pascal = (s: string) => s.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

const named = new Map<string, string>(); // schema JSON -> Python name
const out: string[] = [];
const emitted = new Set<string>();

/** An object schema, allOf parts merged (typebox's Intersect). */
function objectOf(s: Schema): Schema | null {
  if (s.type === 'object' && s.properties) return s;
  if (!s.allOf) return null;
  const merged: Schema = { type: 'object', properties: {}, required: [] as string[], description: s.description };
  for (const part of s.allOf as Schema[]) {
    const o = objectOf(part);
    if (!o) return null;
    Object.assign(merged.properties, o.properties);
    merged.required.push(...(o.required ?? []));
  }
  return merged;
}

function typeOf(s: Schema, hint: string): string {
  const key = JSON.stringify(s);
  if (named.has(key)) return named.get(key)!;
  if (s.const !== undefined) return `Literal[${JSON.stringify(s.const)}]`;
  if (s.anyOf) {
    const parts = (s.anyOf as Schema[]).map((p) => typeOf(p, hint));
    const lits = parts.filter((p) => p.startsWith('Literal['));
    if (lits.length === parts.length) return `Literal[${lits.map((l) => l.slice(8, -1)).join(', ')}]`;
    const unique = [...new Set(parts)];
    return unique.length === 1 ? unique[0] : `Union[${unique.join(', ')}]`;
  }
  if (objectOf(s)) return emitObject(hint, s);
  switch (s.type) {
    case 'string': return 'str';
    case 'number': return 'float';
    case 'integer': return 'int';
    case 'boolean': return 'bool';
    case 'null': return 'None';
    case 'array': return `List[${s.items ? typeOf(s.items, hint.replace(/s$/, '')) : 'Any'}]`;
    case 'object': return 'Dict[str, Any]';
    default: return 'Any';
  }
}

function emitObject(name: string, s: Schema): string {
  const key = JSON.stringify(s);
  if (named.has(key)) return named.get(key)!;
  name = preferred.get(key) ?? name;
  while (emitted.has(name)) name = `${name}_`;
  named.set(key, name);
  emitted.add(name);
  const o = objectOf(s)!;
  const required = new Set<string>(o.required ?? []);
  const fields = Object.entries(o.properties as Record<string, Schema>).map(([k, v]) => ({ k, t: typeOf(v, name + pascal(k)), req: required.has(k), doc: v.description as string | undefined }));
  const lines: string[] = [];
  const doc = (s.description ?? o.description) as string | undefined;
  const req = fields.filter((f) => f.req);
  const opt = fields.filter((f) => !f.req);
  const dict = (fs: typeof fields) => `{${fs.map((f) => `${JSON.stringify(f.k)}: ${f.t}`).join(', ')}}`;
  if (!req.length || opt.some((f) => KEYWORDS.has(f.k)) || req.some((f) => KEYWORDS.has(f.k))) {
    // Functional form: keys such as "class" cannot be written as class fields. Required keys, if any,
    // are then optional to the type checker (none of the API's shapes has both today).
    lines.push(`${name} = TypedDict(${JSON.stringify(name)}, ${dict(fields)}, total=${req.length ? 'True' : 'False'})`);
    if (doc) lines.push(`"""${doc.replace(/"""/g, "'''")}"""`);
  } else {
    lines.push(`class _${name}Required(TypedDict):`, ...req.map((f) => `    ${f.k}: ${f.t}`), '');
    lines.push(`class ${name}(_${name}Required, total=False):`);
    if (doc) lines.push(`    """${doc.replace(/"""/g, "'''")}"""`);
    lines.push(...(opt.length ? opt.map((f) => `    ${f.k}: ${f.t}`) : ['    pass']));
  }
  out.push(lines.join('\n'), '');
  return name;
}

// The schemas' own names, given before any is written, so that a nested shape (a bbox) takes its name
// (Rect) wherever it is met first. Observe's names that snapshot's already use get a Map prefix.
const modules: [string, Record<string, unknown>][] = [['', snapshot], ['Map', observe], ['', usage]];
const preferred = new Map<string, string>();
const exports: [string, Schema][] = [];
const taken = new Set<string>();
for (const [prefix, mod] of modules) {
  for (const [name, value] of Object.entries(mod)) {
    if (!isSchema(value) || !/^[A-Z]/.test(name)) continue;
    const s = plain(value);
    if (!objectOf(s)) continue;
    const want = taken.has(name) ? prefix + name : name;
    taken.add(want);
    exports.push([want, s]);
    if (!preferred.has(JSON.stringify(s))) preferred.set(JSON.stringify(s), want);
  }
}
const exported: string[] = [];
for (const [want, s] of exports) {
  const got = emitObject(want, s);
  if (got !== want) out.push(`${want} = ${got}`, '');
  exported.push(want);
}

const file = `"""The API's shapes as TypedDicts. Generated by scripts/python-types.ts from the typebox schemas in
src/schema (the single source of the API's shapes) when the project is built; do not edit."""
from __future__ import annotations

from typing import Any, Dict, List, Literal, TypedDict, Union

${out.join('\n')}
__all__ = [${exported.map((n) => JSON.stringify(n)).join(', ')}]
`;
writeFileSync(process.argv[2] ?? 'clients/python/src/sightline/types.py', file);
