// Server settings: each one defined once with its flag, environment variable, default and check, so
// the command line, the environment and `sightline serve --help` cannot drift apart.
import type { RateLimit } from '../store/store.ts';
import { DEBIAN_CHROMIUM } from '../observe/browser/render-chromium.ts';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Where keys and credits live: '' for the SQLite file in dataDir, or a postgres:// URL. */
  store: string;
  /** A direct postgres:// connection for LISTEN when `store` goes through PgBouncer; '' for `store`. */
  storeListen: string;
  /** How long a Postgres instance trusts a cached key between change notifications (0: no cache). */
  storeKeyCacheMs: number;
  workers: number;
  /** Server cap for snapshot `options.limit`. */
  limitCap: number;
  maxBodyBytes: number;
  /** A request whose body has not fully arrived by then gets 408 and its connection closed. */
  bodyTimeoutMs: number;
  /** Work on a request longer than this is answered with 504; the route is told through its abort signal. */
  deadlineMs: number;
  /** How long a credit hold may stay unresolved before the sweeper voids it (its process died). */
  holdTtlMs: number;
  /** How often the sweeper looks for expired holds and idempotency records. */
  sweepIntervalMs: number;
  rateLimit: RateLimit;
  /** How long shutdown waits for in-flight requests. */
  shutdownGraceMs: number;
  logLevel: string;
  /** CIDRs observe may reach although they are private (tests: the loopback server). Empty: none. */
  egressAllow: string[];
  /** Largest page observe reads, decoded. */
  maxPageBytes: number;
  /** Time allowed to fetch a page for read mode. */
  pageTimeoutMs: number;
  /** How long a visual screenshot URL works, seconds. */
  screenshotTtlS: number;
  /** Where visual screenshots are stored: `files` (<data-dir>/screenshots) or `s3://bucket/prefix`. */
  screenshots: string;
  /** An S3-compatible endpoint (MinIO...) instead of AWS; empty: AWS. */
  s3Endpoint: string;
  /** Base of the screenshot URLs handed out; empty: http:// + the request's Host header. */
  publicUrl: string;
  /** Chromium for rendering (Debian's by default): MCP sessions, and the page pool when renderChromium says so. */
  chromium: string;
  /** The page pool's Chromium (map, visual, rendered read): a path, or `auto` (render-chromium.ts). */
  renderChromium: string;
  /** Browser hosts to use instead of launching Chromium (SIGHTLINE_BROWSER_WS, comma-separated). */
  browserWs: string[];
  /** The token the browser hosts require (their --token). */
  browserToken: string;
  /** Pages rendering at once, and requests allowed to wait for one (503 busy beyond). */
  browserPages: number;
  browserQueue: number;
  /** Map's path: fast (issue 19: adaptive settle, reads at once, context closed after the answer) or legacy. */
  mapPath: 'fast' | 'legacy';
  /** Fresh browser contexts (each with its page) kept ready for the next requests; 0: none. */
  mapSpares: number;
  /** Local Chromiums serving map and visual in turn, each with its own spares (AlternatingBrowsers). */
  mapBrowsers: number;
  /** Read mode's extraction processes (0 in the table: one per core, shared among serving workers, at least 2 each). */
  extractWorkers: number;
  /** Pages allowed to wait for an extraction process (503 busy beyond). */
  extractQueue: number;
  /** Time one page may take to extract; beyond, its process is replaced and the page refused (422 too_large, charged). */
  extractTimeoutMs: number;
  /** Elements a page may have to be read at all (422 too_large above, before parsing). */
  extractMaxNodes: number;
  /** Resident memory (MiB) one extraction process may reach on a page (422 too_large above; it is killed). */
  extractMemoryMb: number;
  /** `uws` serves; `node` runs the same routes on node:http, the baseline benchmarks compare against. */
  http: 'uws' | 'node';
  /** Bearer token for GET /metrics; empty: /metrics answers only on loopback. */
  metricsToken: string;
  /** Redis for per-key limits (`redis://…`); empty: the store's bucket and in-process leases. */
  redisUrl: string;
  /** Longest wait for one Redis call before the limits fall back to in-process ones. */
  redisTimeoutMs: number;
  /** API instances sharing the limits: while Redis is away each holds limit ÷ instances. */
  instances: number;
  /** Requests one key may have in progress at once (429 beyond); 0: unlimited. */
  keyConcurrency: number;
  /** Seconds an MCP session (POST /mcp) may stay idle before its browser is closed. */
  mcpIdleS: number;
  /** MCP sessions (each with its own Chromium) open at once per serving thread. */
  mcpSessions: number;
  /** MCP sessions one key may hold open at once per serving thread (429 beyond). */
  mcpSessionsPerKey: number;
  /** Serve on the slow JavaScript fallback when the uWebSockets.js binary does not load (never by default). */
  allowUwsFallback: boolean;
}

interface Setting {
  /** A ServerConfig key (or 'rate', 'burst', 'maxBodyMb', 'maxPageMb'), or a BrowserHostConfig key. */
  key: string;
  flag: string;
  env: string;
  default: string;
  help: string;
  parse: (raw: string) => unknown;
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`must be an integer from ${min} to ${max}`);
  return n;
};
const positive = (raw: string) => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error('must be a positive number');
  return n;
};
const text = (raw: string) => {
  if (!raw) throw new Error('must not be empty');
  return raw;
};
const bool = (raw: string) => {
  if (!/^(1|0|true|false)$/i.test(raw)) throw new Error('must be true or false');
  return /^(1|true)$/i.test(raw);
};
const oneOf = (...choices: string[]) => (raw: string) => {
  if (!choices.includes(raw)) throw new Error(`must be one of ${choices.join(', ')}`);
  return raw;
};
const cidrs = (raw: string) => raw.split(',').map((c) => c.trim()).filter(Boolean).map((c) => {
  if (!/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(c)) throw new Error(`"${c}" is not a CIDR such as 127.0.0.1/32`);
  return c;
});
/** `s3://bucket/some/prefix` → bucket and key prefix (ending in `/` unless empty). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error('must be files or s3://bucket[/prefix]');
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
}
const blobStore = (raw: string) => {
  if (raw !== 'files') parseS3Url(raw);
  return raw;
};
const wsList = (raw: string) => raw.split(',').map((u) => u.trim()).filter(Boolean).map((u) => {
  let url: URL;
  try { url = new URL(u); } catch { throw new Error(`"${u}" is not a URL such as ws://10.0.0.5:9400/`); }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`"${u}" is not a ws:// or wss:// URL`);
  return url.href;
});
const redisUrl = (raw: string) => {
  if (raw === '') return raw;
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new Error('must be a redis:// or rediss:// URL');
  return raw;
};
const postgresUrl = (raw: string) => {
  if (raw && !/^postgres(ql)?:\/\//.test(raw)) throw new Error('must be a postgres://… URL (or empty for the SQLite file in --data-dir)');
  return raw;
};
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const level = (raw: string) => {
  if (!LOG_LEVELS.includes(raw)) throw new Error(`must be one of ${LOG_LEVELS.join(', ')}`);
  return raw;
};

export const SETTINGS: Setting[] = [
  { key: 'port', flag: 'port', env: 'SIGHTLINE_PORT', default: '8787', help: 'TCP port (0 picks a free one)', parse: int(0, 65535) },
  { key: 'host', flag: 'host', env: 'SIGHTLINE_HOST', default: '127.0.0.1', help: 'address to listen on', parse: text },
  { key: 'dataDir', flag: 'data-dir', env: 'SIGHTLINE_DATA_DIR', default: './data', help: 'where the SQLite store and screenshots live', parse: text },
  { key: 'store', flag: 'store', env: 'SIGHTLINE_STORE', default: '', help: 'where keys and credits live: a postgres:// URL (default: the SQLite file in --data-dir)', parse: postgresUrl },
  { key: 'storeListen', flag: 'store-listen', env: 'SIGHTLINE_STORE_LISTEN', default: '', help: 'direct postgres:// URL for key-change notifications when --store goes through PgBouncer (default: --store)', parse: postgresUrl },
  { key: 'storeKeyCacheMs', flag: 'store-key-cache-ms', env: 'SIGHTLINE_STORE_KEY_CACHE_MS', default: '5000', help: 'how long each instance keeps a Postgres key in memory; changes are pushed at once (0: no cache)', parse: int(0, 3_600_000) },
  { key: 'workers', flag: 'workers', env: 'SIGHTLINE_WORKERS', default: '1', help: 'worker threads serving the same port', parse: int(1, 64) },
  { key: 'limitCap', flag: 'limit-cap', env: 'SIGHTLINE_LIMIT_CAP', default: '100', help: 'server cap for snapshot options.limit', parse: int(1, 100_000) },
  { key: 'maxBodyMb', flag: 'max-body-mb', env: 'SIGHTLINE_MAX_BODY_MB', default: '32', help: 'largest request body, MiB, after decoding its Content-Encoding (413 above)', parse: positive },
  { key: 'bodyTimeoutMs', flag: 'body-timeout-ms', env: 'SIGHTLINE_BODY_TIMEOUT_MS', default: '10000', help: 'time allowed to receive a body (408 after)', parse: int(1) },
  { key: 'deadlineMs', flag: 'deadline-ms', env: 'SIGHTLINE_DEADLINE_MS', default: '30000', help: 'time allowed for the work of one request (504 after)', parse: int(1) },
  { key: 'holdTtlMs', flag: 'hold-ttl-ms', env: 'SIGHTLINE_HOLD_TTL_MS', default: 'auto', help: 'time before an unresolved credit hold is voided by the sweeper (auto: the deadline plus 30 s)', parse: (raw: string) => (raw === 'auto' ? 0 : int(1)(raw)) },
  { key: 'sweepIntervalMs', flag: 'sweep-interval-ms', env: 'SIGHTLINE_SWEEP_INTERVAL_MS', default: '10000', help: 'how often expired holds are voided and old idempotency records dropped', parse: int(10) },
  { key: 'rate', flag: 'rate-limit', env: 'SIGHTLINE_RATE_LIMIT', default: '50', help: 'requests per second per key (token refill rate)', parse: positive },
  { key: 'burst', flag: 'rate-burst', env: 'SIGHTLINE_RATE_BURST', default: '100', help: 'requests per key accepted at once (bucket size)', parse: int(1) },
  { key: 'shutdownGraceMs', flag: 'shutdown-grace-ms', env: 'SIGHTLINE_SHUTDOWN_GRACE_MS', default: '10000', help: 'how long shutdown waits for in-flight requests', parse: int(0) },
  { key: 'logLevel', flag: 'log-level', env: 'SIGHTLINE_LOG_LEVEL', default: 'info', help: 'pino log level', parse: level },
  { key: 'egressAllow', flag: 'egress-allow', env: 'SIGHTLINE_EGRESS_ALLOW', default: '', help: 'private CIDRs observe may reach (comma-separated), e.g. 127.0.0.1/32 to try it on a page served on this machine', parse: cidrs },
  { key: 'maxPageMb', flag: 'max-page-mb', env: 'SIGHTLINE_MAX_PAGE_MB', default: '10', help: 'largest page observe reads, MiB', parse: positive },
  { key: 'pageTimeoutMs', flag: 'page-timeout-ms', env: 'SIGHTLINE_PAGE_TIMEOUT_MS', default: '15000', help: 'time to load a page: the read fetch (redirects included) or the browser in any mode', parse: int(1) },
  { key: 'screenshotTtlS', flag: 'screenshot-ttl-s', env: 'SIGHTLINE_SCREENSHOT_TTL_S', default: '3600', help: 'how long a visual screenshot URL works, seconds', parse: int(1, 604_800) },
  { key: 'screenshots', flag: 'screenshots', env: 'SIGHTLINE_SCREENSHOTS', default: 'files', help: 'where visual screenshots live: files (<data-dir>/screenshots) or s3://bucket/prefix (presigned URLs)', parse: blobStore },
  { key: 's3Endpoint', flag: 's3-endpoint', env: 'SIGHTLINE_S3_ENDPOINT', default: '', help: 'S3-compatible endpoint URL for --screenshots s3:// (MinIO...; default AWS, credentials from AWS_* variables)', parse: (raw: string) => raw },
  { key: 'publicUrl', flag: 'public-url', env: 'SIGHTLINE_PUBLIC_URL', default: '', help: 'base of screenshot URLs (default: http:// and the request\'s Host)', parse: (raw: string) => raw.replace(/\/+$/, '') },
  { key: 'chromium', flag: 'chromium', env: 'SIGHTLINE_CHROMIUM', default: DEBIAN_CHROMIUM, help: 'Chromium executable for rendering (MCP sessions; the page pool\'s too unless --render-chromium takes the headless shell)', parse: text },
  { key: 'renderChromium', flag: 'render-chromium', env: 'SIGHTLINE_RENDER_CHROMIUM', default: 'auto', help: 'Chromium executable of the page pool (map, visual, rendered read); auto: Debian\'s headless shell (/usr/lib/chromium/chromium-headless-shell, package chromium-headless-shell) when installed and --chromium is Debian\'s, else --chromium', parse: text },
  { key: 'browserWs', flag: 'browser-ws', env: 'SIGHTLINE_BROWSER_WS', default: '', help: 'browser hosts (`sightline browser-host` ws:// endpoints, comma-separated) to use instead of launching Chromium', parse: wsList },
  { key: 'browserToken', flag: 'browser-token', env: 'SIGHTLINE_BROWSER_TOKEN', default: '', help: 'the token the browser hosts require (their --token)', parse: (raw: string) => raw },
  { key: 'browserPages', flag: 'browser-pages', env: 'SIGHTLINE_BROWSER_PAGES', default: '4', help: 'pages rendering at once', parse: int(1, 256) },
  { key: 'browserQueue', flag: 'browser-queue', env: 'SIGHTLINE_BROWSER_QUEUE', default: '16', help: 'requests waiting for a page before 503 busy', parse: int(0, 10_000) },
  { key: 'mapPath', flag: 'map-path', env: 'SIGHTLINE_MAP_PATH', default: 'fast', help: 'fast: map (performance engine) collects as soon as nothing pending could change the page soon (no request in flight, no short timer that could still render, no animation frame early in a chain, 40 ms without DOM changes) and a used browser context closes after the answer; legacy: the earlier path (150 ms without mutations, context closed before the answer), for comparison', parse: oneOf('fast', 'legacy') },
  { key: 'mapSpares', flag: 'map-spares', env: 'SIGHTLINE_MAP_SPARES', default: '1', help: 'fresh browser contexts, each with its page and renderer started, kept ready for the next requests (each used once, topped up after each answer while no request waits; at most --browser-pages; --map-path legacy makes at most 1, once the used context has closed, before the answer; with --browser-ws, every host pool keeps as many and reserves them on the host beside --browser-pages); 0: every request makes its own', parse: int(0, 256) },
  { key: 'mapBrowsers', flag: 'map-browsers', env: 'SIGHTLINE_MAP_BROWSERS', default: '2', help: 'local Chromiums sharing the --browser-pages, each keeping its own --map-spares: a request goes to one whose spare is ready, so the spare made after an answer is made in another browser process than the next request (one UI thread each); 1: one Chromium; at most --browser-pages; --map-path legacy and --browser-ws use one', parse: int(1, 8) },
  { key: 'extractWorkers', flag: 'extract-workers', env: 'SIGHTLINE_EXTRACT_WORKERS', default: 'auto', help: 'child processes extracting read-mode pages (auto: one per core, divided among --workers, at least 2 each); one key may use all but one of them at once', parse: (raw: string) => (raw === 'auto' ? 0 : int(1, 256)(raw)) },
  { key: 'extractQueue', flag: 'extract-queue', env: 'SIGHTLINE_EXTRACT_QUEUE', default: '16', help: 'pages waiting for an extraction process before 503 busy; one key may keep a quarter of them waiting (429 rate_limited beyond)', parse: int(0, 10_000) },
  { key: 'extractTimeoutMs', flag: 'extract-timeout-ms', env: 'SIGHTLINE_EXTRACT_TIMEOUT_MS', default: '10000', help: 'time to extract one page (422 too_large after, charged: the work was done; its process is replaced)', parse: int(1) },
  { key: 'extractMaxNodes', flag: 'extract-max-nodes', env: 'SIGHTLINE_EXTRACT_MAX_NODES', default: '200000', help: 'most elements a page may have to be read (422 too_large above, before parsing)', parse: int(1) },
  { key: 'extractMemoryMb', flag: 'extract-memory-mb', env: 'SIGHTLINE_EXTRACT_MEMORY_MB', default: '1024', help: 'resident memory one extraction process may reach on a page (422 too_large above: it is killed, its memory back to the system); a process left above half of it after a page is recycled', parse: int(128, 65_536) },
  { key: 'http', flag: 'http', env: 'SIGHTLINE_HTTP', default: 'uws', help: 'HTTP server: uws, or node (node:http, one worker; a benchmark baseline)', parse: oneOf('uws', 'node') },
  { key: 'mcpIdleS', flag: 'mcp-idle-s', env: 'SIGHTLINE_MCP_IDLE_S', default: '300', help: 'seconds an MCP session (POST /mcp) may go without a tools/call before it and its browser are closed', parse: int(1, 86_400) },
  { key: 'mcpSessions', flag: 'mcp-sessions', env: 'SIGHTLINE_MCP_SESSIONS', default: '8', help: 'MCP sessions (POST /mcp) open at once per worker, each with its own Chromium (503 busy for an initialize beyond)', parse: int(1, 1000) },
  { key: 'mcpSessionsPerKey', flag: 'mcp-sessions-per-key', env: 'SIGHTLINE_MCP_SESSIONS_PER_KEY', default: '2', help: 'MCP sessions one key may hold open at once per worker (429 rate_limited for an initialize beyond)', parse: int(1, 1000) },
  { key: 'metricsToken', flag: 'metrics-token', env: 'SIGHTLINE_METRICS_TOKEN', default: '', help: 'bearer token GET /metrics requires (without one, /metrics answers only on loopback)', parse: (raw: string) => raw },
  { key: 'redisUrl', flag: 'redis', env: 'SIGHTLINE_REDIS_URL', default: '', help: 'Redis for per-key rate limits and concurrency leases shared by every instance, redis://[user:password@]host:port[/db] (prefer the environment: flags show in ps)', parse: redisUrl },
  { key: 'redisTimeoutMs', flag: 'redis-timeout-ms', env: 'SIGHTLINE_REDIS_TIMEOUT_MS', default: '200', help: 'longest wait for one Redis call; after a failure limits fall back to in-process ones until Redis answers a probe', parse: int(1, 60_000) },
  { key: 'instances', flag: 'instances', env: 'SIGHTLINE_INSTANCES', default: '1', help: 'API instances sharing the limits: while Redis is away each holds limit ÷ instances', parse: int(1, 10_000) },
  { key: 'keyConcurrency', flag: 'key-concurrency', env: 'SIGHTLINE_KEY_CONCURRENCY', default: '0', help: 'requests one key may have in progress at once (429 rate_limited beyond; 0: unlimited)', parse: int(0, 1_000_000) },
  { key: 'allowUwsFallback', flag: 'allow-uws-fallback', env: 'SIGHTLINE_ALLOW_UWS_FALLBACK', default: 'false', help: 'serve on the slow JS fallback if the uWS binary fails to load', parse: bool },
];

export class ConfigError extends Error {}

/** `--hold-ttl-ms auto`: the deadline plus this. */
export const HOLD_TTL_MARGIN_MS = 30_000;

/** Each setting from its flag, else its environment variable, else its default. */
function resolveSettings(settings: Setting[], flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const s of settings) {
    const [raw, source] = flags[s.flag] !== undefined ? [flags[s.flag]!, `--${s.flag}`]
      : env[s.env] !== undefined && env[s.env] !== '' ? [env[s.env]!, s.env] : [s.default, 'default'];
    if (raw === '' && s.default === '') { values[s.key] = s.parse(raw); continue; }
    try {
      values[s.key] = s.parse(raw);
    } catch (err) {
      throw new ConfigError(`${source} ${JSON.stringify(raw)}: ${(err as Error).message}`);
    }
  }
  return values;
}

/** Builds the config from command-line values (strings by flag name), then the environment, then defaults. */
export function resolveConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const values = resolveSettings(SETTINGS, flags, env);
  const { rate, burst, maxBodyMb, maxPageMb, ...rest } = values;
  if (rest.http === 'node' && (rest.workers as number) > 1) throw new ConfigError('--http node serves with one worker: node:http threads cannot share a port');
  const deadlineMs = rest.deadlineMs as number;
  if (rest.holdTtlMs === 0) rest.holdTtlMs = deadlineMs + HOLD_TTL_MARGIN_MS;
  // A hold must outlive its request's deadline, or the sweeper could void work still being answered.
  if ((rest.holdTtlMs as number) <= deadlineMs) throw new ConfigError(`--hold-ttl-ms ${rest.holdTtlMs} must be longer than --deadline-ms ${deadlineMs}`);
  return {
    ...(rest as unknown as Omit<ServerConfig, 'rateLimit' | 'maxBodyBytes' | 'maxPageBytes'>),
    rateLimit: { rate: rate as number, burst: burst as number },
    maxBodyBytes: Math.round((maxBodyMb as number) * 1024 * 1024),
    maxPageBytes: Math.round((maxPageMb as number) * 1024 * 1024),
  };
}

/** `sightline browser-host`: Chromium behind Playwright's browser server, fenced by the egress proxy. */
export interface BrowserHostConfig {
  host: string;
  port: number;
  /** Pages the host runs at once: connections reserve them, and one beyond is refused. */
  pages: number;
  /** Bearer token a connection must present; empty: none (then only a loopback address may be served). */
  token: string;
  chromium: string;
  /** The Chromium the host launches: a path, or `auto` (render-chromium.ts). */
  renderChromium: string;
  egressAllow: string[];
  logLevel: string;
}

export const HOST_SETTINGS: Setting[] = [
  { key: 'port', flag: 'port', env: 'SIGHTLINE_BROWSER_HOST_PORT', default: '9400', help: 'TCP port of the ws endpoint and GET /healthz (0 picks a free one)', parse: int(0, 65535) },
  { key: 'host', flag: 'host', env: 'SIGHTLINE_BROWSER_HOST_LISTEN', default: '127.0.0.1', help: 'address to listen on (other than loopback only with a token)', parse: text },
  { key: 'pages', flag: 'pages', env: 'SIGHTLINE_BROWSER_HOST_PAGES', default: '8', help: 'pages at once: each connection reserves its pool size plus its spares (the API --browser-pages plus --map-spares), a connection beyond is refused (503)', parse: int(1, 1024) },
  { key: 'token', flag: 'token', env: 'SIGHTLINE_BROWSER_HOST_TOKEN', default: '', help: 'bearer token every connection must present (API instances: --browser-token)', parse: (raw: string) => raw },
  { key: 'chromium', flag: 'chromium', env: 'SIGHTLINE_CHROMIUM', default: DEBIAN_CHROMIUM, help: 'Chromium executable (unless --render-chromium takes the headless shell)', parse: text },
  { key: 'renderChromium', flag: 'render-chromium', env: 'SIGHTLINE_RENDER_CHROMIUM', default: 'auto', help: 'Chromium executable the host launches; auto: Debian\'s headless shell (/usr/lib/chromium/chromium-headless-shell) when installed and --chromium is Debian\'s, else --chromium', parse: text },
  { key: 'egressAllow', flag: 'egress-allow', env: 'SIGHTLINE_EGRESS_ALLOW', default: '', help: 'private CIDRs the browser may reach (comma-separated; for tests)', parse: cidrs },
  { key: 'logLevel', flag: 'log-level', env: 'SIGHTLINE_LOG_LEVEL', default: 'info', help: 'pino log level', parse: level },
];

const LOOPBACK_LISTEN = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export function resolveHostConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv = process.env): BrowserHostConfig {
  const config = resolveSettings(HOST_SETTINGS, flags, env) as unknown as BrowserHostConfig;
  if (!config.token && !LOOPBACK_LISTEN.test(config.host)) throw new ConfigError(`--host ${config.host} is reachable from other machines: set --token (SIGHTLINE_BROWSER_HOST_TOKEN)`);
  return config;
}

/** The browser host's settings as help text lines. */
export function hostSettingsHelp(): string {
  return HOST_SETTINGS.map((s) => `  --${s.flag.padEnd(20)} ${s.help} (env ${s.env}, default ${s.default})`).join('\n');
}

/** The settings as help text lines. */
export function settingsHelp(): string {
  return SETTINGS.map((s) => `  --${s.flag.padEnd(20)} ${s.help} (env ${s.env}, default ${s.default})`).join('\n');
}
