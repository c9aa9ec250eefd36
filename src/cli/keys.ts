// `sightline keys ...`: create, list, and change keys in the store under the data directory.
import type { Account, Store } from '../store/store.ts';

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

/** Runs a keys subcommand; returns the lines to print (the new key alone on the last line for `create`). */
export async function keysCommand(store: Store, args: string[], flags: { credits?: string; inactive?: boolean; json?: boolean }): Promise<string[]> {
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
    default:
      throw new UsageError(sub ? `unknown keys command "${sub}"` : 'keys needs a command: create, list, set-credits, deactivate, activate');
  }
}
