// Runs Debian's haproxy with the shipped deploy/haproxy.cfg in front of API instances, so the tests
// exercise the configuration operators use (its addresses come from the environment).
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.ts';
import { fileURLToPath } from 'node:url';

export const HAPROXY_CFG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));

export interface Balancer { url: string; proc: ChildProcess; stop(): Promise<void> }


/** Starts haproxy in the foreground for up to three API addresses (host:port); resolves once every
 *  backend passed its health check through the balancer's own address. `cfg`: another configuration
 *  with the same variables (benchmarks compare variants of the shipped one). */
export async function startBalancer(apis: string[], cfg = HAPROXY_CFG): Promise<Balancer> {
  if (apis.length < 1 || apis.length > 3) throw new Error('deploy/haproxy.cfg lists three instances');
  const [port, stats] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env, SIGHTLINE_LB_BIND: `127.0.0.1:${port}`, SIGHTLINE_LB_STATS: `127.0.0.1:${stats}`,
    // Fewer instances than lines: the extra lines point at the first one.
    SIGHTLINE_API1: apis[0], SIGHTLINE_API2: apis[1] ?? apis[0], SIGHTLINE_API3: apis[2] ?? apis[0],
  };
  const proc = spawn('haproxy', ['-db', '-f', cfg], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout!.on('data', (d) => { output += d; });
  proc.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<void>((done) => proc.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  // Ready when the stats CSV shows every server UP (health checks every 2 s, rise 2).
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    try {
      const csv = await (await fetch(`http://127.0.0.1:${stats}/;csv`)).text();
      const servers = csv.split('\n').filter((l) => l.startsWith('api,api'));
      if (servers.length === 3 && servers.every((l) => l.split(',')[17] === 'UP')) break;
    } catch { /* not listening yet */ }
    if (i > 150) { proc.kill('SIGKILL'); throw new Error(`haproxy backends not UP within 15 s: ${output}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, proc,
    async stop() { if (proc.exitCode === null) proc.kill('SIGTERM'); await exited; },
  };
}
