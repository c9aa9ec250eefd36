// `sightline keys ...`: create, list, and change keys in the store under the data directory.
import type { Account, Store } from '../store/store.ts';
import { SightlineError } from '../schema/errors.ts';
import type { UsageResponse } from '../schema/usage.ts';
import { parseUsageQuery, usagePage } from '../server/routes/usage.ts';

export class UsageError extends Error {}

function credits(raw: string | undefined): number {
  const n = Number(raw);
  if (raw === undefined || raw === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`credits must be a whole number >= 0 (got ${raw ?? 'nothing'})`);
  return n;
}

async function find(store: Store, ref: string | undefined): Promise<Account> {
  if (!ref) throw new UsageError('name the key: the full key, its prefix as `keys list` shows it, or its id');
  const account = await store.resolve(ref);
  if (!account) throw new UsageError(`no key matches ${JSON.stringify(ref)}`);
  return account;
}

const row = (a: Account) => `${String(a.id).padEnd(5)} ${a.prefix.padEnd(13)} ${String(a.credits).padStart(10)}  ${(a.active ? 'active' : 'inactive').padEnd(9)} ${a.created_at}`;

/** GET /v1/usage's answer as a table, newest first, and how to ask for older entries. */
function usageTable(page: UsageResponse, ref: string): string[] {
  const lines = [`key ${page.key}…  available ${page.balance.available}  held ${page.balance.held}`];
  if (!page.entries.length) return [...lines, 'no charges or refunds'];
  const idWidth = Math.max(10, ...page.entries.map((e) => (e.request_id ?? '').length));
  lines.push(`${'time'.padEnd(24)}  ${'type'.padEnd(6)}  ${'credits'.padStart(7)}  ${'request id'.padEnd(idWidth)}  reason`);
  for (const e of page.entries) {
    lines.push(`${e.time.padEnd(24)}  ${e.type.padEnd(6)}  ${String(e.credits).padStart(7)}  ${(e.request_id ?? '-').padEnd(idWidth)}  ${e.reason ?? ''}`.trimEnd());
  }
  if (page.next_cursor) lines.push(`older entries: sightline keys usage ${ref} --cursor ${page.next_cursor}`);
  return lines;
}

/** Runs a keys subcommand; returns the lines to print (the new key alone on the last line for `create`). */
export async function keysCommand(store: Store, args: string[], flags: { credits?: string; inactive?: boolean; json?: boolean; limit?: string; cursor?: string }): Promise<string[]> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const { key, account } = await store.createKey(credits(flags.credits), !flags.inactive);
      return [`created key ${account.id} (${account.prefix}…) with ${account.credits} credits${account.active ? '' : ', inactive'}; it is shown once:`, key];
    }
    case 'list': {
      const accounts = await store.listAccounts();
      if (flags.json) return [JSON.stringify(accounts)];
      return [`${'id'.padEnd(5)} ${'key'.padEnd(13)} ${'credits'.padStart(10)}  ${'state'.padEnd(9)} created`, ...accounts.map(row)];
    }
    case 'set-credits': {
      const account = await find(store, rest[0]);
      return [row(await store.setCredits(account.id, credits(rest[1])))];
    }
    case 'deactivate':
    case 'activate': {
      const account = await find(store, rest[0]);
      return [row(await store.setActive(account.id, sub === 'activate'))];
    }
    case 'usage': {
      const account = await find(store, rest[0]);
      const query = new URLSearchParams();
      if (flags.limit !== undefined) query.set('limit', flags.limit);
      if (flags.cursor !== undefined) query.set('cursor', flags.cursor);
      let page: UsageResponse;
      try {
        page = await usagePage(store, account, parseUsageQuery(query.toString()));
      } catch (err) {
        if (err instanceof SightlineError) throw new UsageError(err.message.replace('Invalid query: ', '--'));
        throw err;
      }
      // Refer to the key as the operator did, unless that was the full key (kept off the screen).
      const ref = rest[0].length > page.key.length ? String(account.id) : rest[0];
      return flags.json ? [JSON.stringify(page)] : usageTable(page, ref);
    }
    default:
      throw new UsageError(sub ? `unknown keys command "${sub}"` : 'keys needs a command: create, list, set-credits, deactivate, activate, usage');
  }
}
