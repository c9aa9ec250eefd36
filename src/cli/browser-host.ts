// `sightline browser-host`: starts the host (src/observe/browser/browser-host.ts) with its settings, refuses an
// environment that would let traffic around the egress proxy, and stops on SIGINT/SIGTERM/SIGHUP.
import { createEgressGuard } from '../observe/egress/egress.ts';
import { proxyBypassInEnv, startBrowserHost } from '../observe/browser/browser-host.ts';
import { renderChromium } from '../observe/browser/render-chromium.ts';
import { logBlocked } from '../observe/egress/egress-proxy.ts';
import { ConfigError, type BrowserHostConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import { stopDeadline, DISPOSE_MS } from './children.ts';

export async function browserHost(config: BrowserHostConfig, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger(config.logLevel, { role: 'browser-host' });
  const guard = createEgressGuard(config.egressAllow);
  const bypass = proxyBypassInEnv(env, guard);
  if (bypass) throw new ConfigError(`refusing to start: ${bypass}`);
  const host = await startBrowserHost({
    host: config.host, port: config.port, pages: config.pages, token: config.token, chromium: renderChromium(config.renderChromium, config.chromium), guard,
    onBlocked: logBlocked(logger),
    onBrowserExit: () => {
      logger.error('Chromium exited: the browser host stops');
      process.exit(1);
    },
    log: (event, fields) => logger.warn(fields, event),
  });
  // Signal handlers go in before the listening line: a signal sent on that line must find them.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'browser host stopping');
    stopDeadline(DISPOSE_MS, logger);
    host.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  logger.info({ ws: host.wsEndpoint, pages: config.pages, token: Boolean(config.token) }, 'browser host listening');
  // Always said, whatever the log level: people and scripts wait for this line.
  process.stderr.write(`sightline: browser host listening on ${host.wsEndpoint} (${config.pages} pages; GET /healthz on the same port)\n`);
}
