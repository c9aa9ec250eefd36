// The one way the server and the command line open the store: the embedded SQLite file under the data
// directory by default, or Postgres when `store` is a postgres:// URL (docs/decisions.md, "Postgres store").
import { openSqliteStore } from './sqlite.ts';
import { openPostgresStore } from './postgres.ts';
import type { Store } from './store.ts';

export interface StoreSettings {
  /** '' for SQLite in `dataDir`, or a postgres:// URL. */
  store: string;
  /** A direct connection for LISTEN ('' for `store`). */
  storeListen?: string;
  /** Postgres key cache lifetime (default 5 s). */
  storeKeyCacheMs?: number;
  dataDir: string;
}

/** Which backend the settings name (for logs and health). */
export const storeKind = (settings: StoreSettings): 'sqlite' | 'postgres' => (settings.store ? 'postgres' : 'sqlite');

export async function openStore(settings: StoreSettings): Promise<Store> {
  if (!settings.store) return openSqliteStore(settings.dataDir);
  return openPostgresStore({ url: settings.store, listenUrl: settings.storeListen || undefined, keyCacheMs: settings.storeKeyCacheMs });
}
