// A process that takes a credit hold and then hangs until it is killed: how a server process that dies
// mid-request leaves its hold behind (test/holds.test.ts kills it with SIGKILL, then the sweeper runs).
// Usage: node --import tsx test/helpers/hold-and-hang.ts <data-dir> <key> <credits> <ttl-ms>
import { openSqliteStore } from '../../src/store/sqlite.ts';

const [dataDir, key, credits, ttlMs] = process.argv.slice(2);
const store = openSqliteStore(dataDir);
const account = await store.resolve(key);
if (!account) throw new Error(`no account for ${key}`);
const hold = await store.reserve(account.id, Number(credits), `pid-${process.pid}`, Number(ttlMs));
process.stdout.write(JSON.stringify(hold) + '\n');
setInterval(() => {}, 1 << 30);
