// GET /v1/usage: the calling key's balance and its latest charges and refunds (the ledger's posts and
// voids), newest first, with a cursor for older ones. Free, but it takes a token from the key's rate
// bucket like every /v1 route (docs/decisions.md, "Usage view"). `sightline keys usage` prints the same.
import { Compile } from 'typebox/compile';
import { badRequest } from '../../schema/errors.ts';
import { UsageQuery, USAGE_DEFAULT_LIMIT, type UsageEntry, type UsageResponse } from '../../schema/usage.ts';
import type { Account, Store } from '../../store/store.ts';
import { admit } from '../auth.ts';
import type { KeyLimits } from '../limits.ts';
import { json } from '../reply.ts';
import type { Route } from '../router.ts';

const check = Compile(UsageQuery);
const PARAMETERS = Object.keys(UsageQuery.properties);

/** The query string as UsageQuery (400 bad_request naming the parameter otherwise). Names are looked
 *  up in a Map and only known ones are copied out, so none (`__proto__`, `constructor`) can reach an
 *  object's prototype. */
export function parseUsageQuery(query: string): UsageQuery {
  const params = new URLSearchParams(query);
  const raw = new Map<string, string>();
  for (const name of new Set(params.keys())) {
    if (!PARAMETERS.includes(name)) throw badRequest(`Invalid query: unknown parameter ${JSON.stringify(name)} (use ${PARAMETERS.join(', ')})`);
    const values = params.getAll(name);
    if (values.length > 1) throw badRequest(`Invalid query: ${name} is given ${values.length} times`);
    raw.set(name, values[0]);
  }
  // A query string carries text: a limit of plain digits is the number the schema checks.
  const value: Record<string, unknown> = Object.fromEntries(raw);
  const limit = raw.get('limit');
  if (limit !== undefined && /^\d{1,9}$/.test(limit)) value.limit = Number(limit);
  const [first] = check.Errors(value);
  if (first) {
    const name = first.instancePath.slice(1);
    const why = name === 'cursor' ? 'must be the next_cursor of an earlier answer' : first.message;
    throw badRequest(`Invalid query: ${name} ${why} (got ${JSON.stringify(raw.get(name))})`);
  }
  return value as UsageQuery;
}

/** One page of a key's usage: what the route answers and `sightline keys usage --json` prints. */
export async function usagePage(store: Store, account: Account, query: UsageQuery): Promise<UsageResponse> {
  const limit = query.limit ?? USAGE_DEFAULT_LIMIT;
  // One row more than asked says whether an older page exists.
  const rows = await store.usage(account.id, limit + 1, query.cursor === undefined ? undefined : Number(query.cursor));
  const shown = rows.slice(0, limit);
  const entries = shown.map((r): UsageEntry => ({
    type: r.kind === 'post' ? 'charge' : 'refund', credits: r.credits, request_id: r.requestId, reason: r.reason,
    time: new Date(r.createdMs).toISOString(),
  }));
  const balance = await store.balance(account.id);
  return {
    status: 'success', key: account.prefix, balance, entries,
    next_cursor: rows.length > limit ? String(shown[shown.length - 1].id) : null,
  };
}

export function usageRoute({ store, limits }: { store: Store; limits: KeyLimits }): Route {
  return async (req) => {
    const account = await admit(store, req, limits);
    return json(200, await usagePage(store, account, parseUsageQuery(req.query)), { 'cache-control': 'no-store' });
  };
}
