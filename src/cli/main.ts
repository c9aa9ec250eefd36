// `sightline`: serve the API, manage keys. Also the entry of serving worker threads (--workers N).
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolveConfig, settingsHelp, ConfigError, SETTINGS, HOST_SETTINGS, hostSettingsHelp, resolveHostConfig, type ServerConfig } from '../server/config.ts';
import { browserHost } from './browser-host.ts';
import { createLogger } from '../server/logger.ts';
import { startServer, type RunningServer } from '../server/server.ts';
import { runWorkers, workerMain, WORKER_FLAG } from '../server/workers.ts';
import { openStore } from '../store/open.ts';
import { migrateFromSqlite } from '../store/migrate-from-sqlite.ts';
import { keysCommand, UsageError } from './keys.ts';
import { ensureDevKey, devKeyBanner, DEV_KEY_CREDITS } from './dev-key.ts';
import { serveStdio } from '../mcp/server.ts';
import { readStorageStateFile } from '../mcp/storage-state.ts';
import { VERSION } from '../server/version.ts';
import { nearest } from '../schema/fields.ts';
import { stopDeadline, DISPOSE_MS } from './children.ts';

const HELP = `sightline: web observation for AI agents

Usage:
  sightline serve [options]                 serve the HTTP API (POST /v1/snapshot, /v1/observe), the playground (/), /docs and /metrics
  sightline mcp [--chromium PATH] [--storage-state FILE | --profile DIR] [--headed]
                                            an MCP server over stdio driving a local Chromium (docs/mcp.md):
                                            starting from a saved Playwright storage state, or in a
                                            persistent profile kept across starts; --headed shows the window
  sightline mcp-config                      print an MCP client config that starts this install's \`sightline mcp\`
                                            by absolute paths (works from any folder)
  sightline --version                       print the version
  sightline keys create --credits N [--inactive]
                                            create a key; it is printed alone on the last line
  sightline keys list [--json]
  sightline keys set-credits KEY N
  sightline keys deactivate KEY
  sightline keys activate KEY
  sightline keys usage KEY [--limit N] [--cursor C] [--json]
                                            the key's balance and latest charges and refunds (GET /v1/usage)
  (KEY: the full key, its prefix as \`keys list\` shows it, or its id)
  sightline browser-host [--port P] [--pages N] [--token T]
                                            run Chromium for API instances (their --browser-ws), fenced by
                                            the egress proxy; GET /healthz on the same port reports its load
  sightline store migrate-from-sqlite PATH --store postgres://…
                                            copy the accounts, key hashes and balances of a SQLite store file
                                            (stop the server using it first) into Postgres, balances as grants
  (keys and store work on --store / SIGHTLINE_STORE, or the SQLite file in --data-dir)

Options (flags win over environment variables):
${settingsHelp()}
  --dev-key                when the store has no key yet, create a development key and print it with a curl example

browser-host options:
${hostSettingsHelp()}
`;

async function serve(config: ServerConfig, devKey: boolean): Promise<void> {
  const logger = createLogger(config.logLevel);
  let key: string | undefined;
  if (devKey) {
    const store = await openStore(config);
    try { key = await ensureDevKey(store, config.dataDir); } finally { await store.close(); }
  }
  const server: RunningServer = config.workers > 1
    ? await runWorkers(config, logger, new URL(import.meta.url))
    : await startServer(config, logger);
  // Signal handlers go in before the listening line: a signal sent on that line must find them.
  let stoppingSince = 0;
  const stop = (signal: string) => {
    if (stoppingSince) {
      // The same signal often arrives twice at once (sent to the process and to its group): only a
      // later one means "stop now". Killing is the only exit that cannot trip on serving threads.
      if (Date.now() - stoppingSince < 2000) return;
      logger.warn({ signal }, 'second signal: exiting now');
      process.kill(process.pid, 'SIGKILL');
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    stopDeadline(config.shutdownGraceMs + DISPOSE_MS, logger);
    server.close().then(() => {
      logger.info('stopped');
      process.exit(0);
    }, (err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A closed terminal: stop as for SIGTERM (Playwright's own hang-up handler is off: launchOptions).
  process.on('SIGHUP', () => stop('SIGHUP'));
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${server.port}`;
  if (key) {
    const store = await openStore(config);
    try { process.stdout.write(devKeyBanner(key, url, (await store.resolve(key))?.credits ?? DEV_KEY_CREDITS) + '\n'); } finally { await store.close(); }
  }
  logger.info({ url, http: server.backend, workers: config.workers, data_dir: config.dataDir }, 'listening');
  // Always said, whatever the log level: people and scripts wait for this line.
  process.stderr.write(`sightline: listening on ${url} (${server.backend}, ${config.workers} worker${config.workers > 1 ? 's' : ''})\n`);
}

/** Our own words for what node:util's parseArgs refuses (its text talks about positionals and '--'). */
function checkFlags(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return;
    if (!arg.startsWith('-') || arg === '-') continue;
    const name = arg.replace(/^--?/, '').split('=')[0];
    const option = options[name];
    if (!option) {
      const near = nearest(name, Object.keys(options));
      const hint = near ? ` (did you mean --${near}?)` : '';
      throw new UsageError(`unknown flag ${arg.split('=')[0]}${hint}`);
    }
    if (option.type === 'string' && !arg.includes('=')) {
      const value = argv[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`--${name} needs a value`);
      i++;
    }
  }
}

/** An MCP client config that runs this install by absolute paths: it works from whatever folder the client starts it in. */
export function mcpConfig(): object {
  const here = fileURLToPath(import.meta.url);
  // From the sources (tsx) the runnable entry is the built one beside them.
  const cli = here.endsWith('.ts') ? fileURLToPath(new URL('../../build/cli.js', import.meta.url)) : here;
  return { mcpServers: { sightline: { command: process.execPath, args: [cli, 'mcp'] } } };
}

async function main(argv: string[]): Promise<number> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    help: { type: 'boolean' }, version: { type: 'boolean' }, 'dev-key': { type: 'boolean' },
    credits: { type: 'string' }, inactive: { type: 'boolean' }, json: { type: 'boolean' },
    limit: { type: 'string' }, cursor: { type: 'string' },
    'storage-state': { type: 'string' }, profile: { type: 'string' }, headed: { type: 'boolean' },
  };
  for (const s of [...SETTINGS, ...HOST_SETTINGS]) options[s.flag] = { type: 'string' };
  checkFlags(argv, options);
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (values.version || command === 'version') {
    process.stdout.write(`sightline ${VERSION}\n`);
    return 0;
  }
  if (values.help || !command || command === 'help') {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 2;
  }
  const flags = values as Record<string, string | undefined>;
  if (command === 'serve') {
    if (rest.length) throw new UsageError(`serve takes no arguments (got ${rest.join(' ')})`);
    await serve(resolveConfig(flags), Boolean(values['dev-key']));
    return -1; // keep running
  }
  if (command === 'browser-host') {
    if (rest.length) throw new UsageError(`browser-host takes no arguments (got ${rest.join(' ')})`);
    await browserHost(resolveHostConfig(flags));
    return -1; // keep running
  }
  if (command === 'mcp') {
    if (rest.length) throw new UsageError(`mcp takes no arguments (got ${rest.join(' ')})`);
    const storageStatePath = flags['storage-state'];
    if (storageStatePath && flags.profile) throw new UsageError('mcp takes --storage-state or --profile, not both (a profile keeps its own state)');
    let storageState;
    try { storageState = storageStatePath ? readStorageStateFile(storageStatePath) : undefined; } catch (err) { throw new UsageError((err as Error).message); }
    // stdout is the MCP channel: nothing else may be written to it.
    await serveStdio({
      chromium: resolveConfig(flags).chromium, headed: Boolean(values.headed), profileDir: flags.profile,
      storageState,
    }, VERSION);
    return -1; // keep running until the client goes
  }
  if (command === 'mcp-config') {
    if (rest.length) throw new UsageError(`mcp-config takes no arguments (got ${rest.join(' ')})`);
    process.stdout.write(JSON.stringify(mcpConfig(), null, 2) + '\n');
    return 0;
  }
  if (command === 'keys') {
    const store = await openStore(resolveConfig(flags));
    try {
      const lines = await keysCommand(store, rest, { credits: flags.credits, inactive: Boolean(values.inactive), json: Boolean(values.json), limit: flags.limit, cursor: flags.cursor });
      process.stdout.write(lines.join('\n') + '\n');
    } finally {
      await store.close();
    }
    return 0;
  }
  if (command === 'store') {
    const [sub, path, ...extra] = rest;
    if (sub !== 'migrate-from-sqlite' || !path || extra.length) throw new UsageError('usage: sightline store migrate-from-sqlite PATH --store postgres://…');
    const config = resolveConfig(flags);
    if (!config.store) throw new UsageError('migrate-from-sqlite copies into Postgres: give --store postgres://… (or SIGHTLINE_STORE)');
    const result = await migrateFromSqlite(path, config.store);
    process.stdout.write(`copied ${result.copied} account${result.copied === 1 ? '' : 's'} (${result.credits} credits as grants); ${result.skipped} already there, left as they are\n`);
    return 0;
  }
  throw new UsageError(`unknown command "${command}"`);
}

if (!isMainThread && workerData?.[WORKER_FLAG]) {
  void workerMain(workerData[WORKER_FLAG], parentPort!);
} else {
  main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exitCode = code;
  }, (err) => {
    const usage = err instanceof UsageError || err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`sightline: ${(err as Error).message}\n${usage ? 'Run `sightline help` for usage.\n' : ''}`);
    process.exitCode = usage ? 2 : 1;
  });
}
