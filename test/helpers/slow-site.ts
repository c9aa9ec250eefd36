// A site on loopback that answers GET /wait/<ms> with one HTML page after that many milliseconds:
// work that finishes before, at or after a deadline, on demand.
import { createServer } from 'node:http';

export interface SlowSite { url: string; close(): void }

export async function serveSlowPage(html: string): Promise<SlowSite> {
  const server = createServer((req, res) => {
    const wait = Number(/^\/wait\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    setTimeout(() => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(html); }, wait);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}
