// Structured logs (pino, JSON lines on stdout). Every request line carries its request id.
import { pino, type Logger } from 'pino';

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings }, timestamp: pino.stdTimeFunctions.isoTime });
}
