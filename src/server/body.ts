// Request bodies as JSON: the content-type rule and parse errors, written once for every route.
import { badRequest, SNAPSHOT_MESSAGES } from '../schema/errors.ts';
import type { HttpRequest } from './http.ts';

/** application/json or any +json type; a missing Content-Type is accepted (many agents omit it). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

export function parseJsonBody(req: HttpRequest): unknown {
  if (req.contentType && !JSON_TYPE.test(req.contentType.trim())) {
    throw badRequest(`Unsupported Content-Type "${req.contentType.slice(0, 100)}": send the body as application/json`);
  }
  if (req.body.length === 0) throw badRequest(`${SNAPSHOT_MESSAGES.invalidJson}: the body is empty`);
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch (err) {
    throw badRequest(`${SNAPSHOT_MESSAGES.invalidJson}: ${(err as Error).message}`);
  }
}
