// The Postgres store on a real postgres process: the same contract suite as SQLite (several pools on one
// database standing in for several instances), its migrations under concurrent starts, the append-only
// ledger, the key cache kept honest by LISTEN/NOTIFY, and unavailability.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openPostgresStore } from '../src/store/postgres.ts';
import { PG_LATEST_VERSION } from '../src/store/postgres-migrations.ts';
import { hashKey } from '../src/store/keys.ts';
import { StoreUnavailableError, type Store } from '../src/store/store.ts';
import { startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { storeContract, assertLedgerInvariant } from './helpers/store-contract.ts';

let server: PostgresServer;
before(async () => { server = await startPostgres(); });
after(() => server?.destroy());

let made = 0;
async function freshDatabase(): Promise<{ name: string; url: string }> {
  const name = `t${process.pid}_${made++}`;
  return { name, url: await server.createDatabase(name) };
}

storeContract('postgres', {
  async create() {
    const { name, url } = await freshDatabase();
    const open: Store[] = [];
    return {
      async open() {
        const store = await openPostgresStore({ url, poolSize: 4 });
        open.push(store);
        return store;
      },
      async destroy() {
        for (const store of open) await store.close();
        await server.dropDatabase(name);
      },
    };
  },
});
