// A free loopback port for a test's own server processes (postgres, redis-server, haproxy): bound,
// read and closed again before use, which is fine on a machine running only the tests.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
