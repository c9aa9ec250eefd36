// Raw HTTP/1.1 over a socket, for what fetch cannot send: ambiguous framing, HTTP/1.0, header bytes
// outside ASCII, more fields than a parser takes.
import { connect } from 'node:net';

export interface Exchange { text: string; closed: boolean; statuses: string[] }

/**
 * Writes each part (a pause between them), then reads until the server closes the connection or
 * `waitMs` passes without it. `statuses` are the response status lines seen.
 */
export async function exchange(port: number, parts: (string | Buffer)[], waitMs = 1500): Promise<Exchange> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  let text = '';
  let closed = false;
  socket.on('data', (d) => { text += d; });
  socket.on('error', () => { /* a reset after the server closed is a close too */ });
  const ended = new Promise<void>((resolve) => socket.once('close', () => { closed = true; resolve(); }));
  for (const [i, part] of parts.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 300));
    if (!closed) socket.write(part);
  }
  await Promise.race([ended, new Promise((r) => setTimeout(r, waitMs))]);
  socket.destroy();
  return { text, closed, statuses: text.match(/HTTP\/1\.[01] \d{3}[^\r]*/g) ?? [] };
}
