// POST /mcp (and DELETE /mcp): the tools of `sightline mcp` over MCP's Streamable HTTP, behind the API
// key (docs/mcp.md). The SDK's web-standard transport answers each POST as JSON (no SSE stream: a
// reply here is one body), one MCP session per `initialize`, each with its own browser whose traffic
// goes through the egress proxy and whose navigations the guard checks first. A session belongs to the
// key that opened it; it closes (browser and all) after --mcp-idle-s without a tool call that ran
// (the paid request: free ones such as tools/list, pings or refused calls do not keep it), or on
// DELETE. Opening one needs a positive balance (402). At most --mcp-sessions are open at once (an
// initialize beyond is 503 busy) and at most --mcp-sessions-per-key for one key (429 rate_limited), so
// one key cannot hold them all.
// Each tools/call costs MCP_TOOL_COST credits, held before the call runs (voided when the transport
// refuses the message).
import { storageStateOfInitialize, type PlaywrightStorageState } from '../../mcp/storage-state.ts';
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { BrowserSession } from '../../mcp/session.ts';
import { createMcpServer } from '../../mcp/server.ts';
import { SightlineError } from '../../schema/errors.ts';
import type { Store } from '../../store/store.ts';
import type { KeyLimits } from '../limits.ts';
import { admit } from '../auth.ts';
import { withHold } from '../holds.ts';
import type { Reply } from '../http.ts';
import type { Route } from '../router.ts';

/** Credits per tools/call; initialize, tools/list and the like are free. */
export const MCP_TOOL_COST = 1;

export interface McpDeps {
  store: Store;
  limits: KeyLimits;
  holdTtlMs: number;
  chromium: string;
  /** The egress proxy's URL (started on first use) and the browser flags that go with it. */
  proxy: { url: () => Promise<string>; flags: string[] };
  /** Throws (an egress refusal) for a URL the service must not reach. */
  checkUrl: (url: string) => Promise<void>;
  idleMs: number;
  /** Sessions open at once in this worker (--mcp-sessions): each may run a Chromium. */
  maxSessions: number;
  /** Sessions one key may hold open at once in this worker (--mcp-sessions-per-key). */
  maxSessionsPerKey: number;
  version: string;
}

interface McpSession {
  accountId: number; transport: WebStandardStreamableHTTPServerTransport; browser: BrowserSession;
  /** Requests under way: the session is not closed under one of them. */
  busy: number;
  /** When the idle clock last started: at the initialize and at the end of each tool call that ran. */
  lastCall: number;
  timer?: NodeJS.Timeout; close(): Promise<void>;
}

const jsonRpcError = (status: number, message: string): Reply => ({
  status, contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
});

/** How many tools/call a JSON-RPC body (one message or a batch) holds. */
function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => (m as { method?: unknown })?.method === 'tools/call').length;
}

/** Whether every tools/call of a request was answered with a JSON-RPC error (not a tool result). */
function callsRefused(request: unknown, answer: string | Buffer): boolean {
  let answers: unknown;
  try { answers = JSON.parse(answer.toString()); } catch { return false; }
  const refused = new Set((Array.isArray(answers) ? answers : [answers]).filter((a) => (a as { error?: unknown })?.error).map((a) => (a as { id?: unknown }).id));
  const calls = (Array.isArray(request) ? request : [request]).filter((m) => (m as { method?: unknown })?.method === 'tools/call');
  return calls.every((m) => refused.has((m as { id?: unknown }).id));
}

/** Whether a JSON-RPC body (one message or a batch) asks to open a session. */
const opens = (body: unknown) => (Array.isArray(body) ? body : [body]).some((m) => (m as { method?: unknown })?.method === 'initialize');

export function mcpRoute(deps: McpDeps): { route: Route; sessions: () => number; close(): Promise<void> } {
  const sessions = new Map<string, McpSession>();
  /** Sessions made and not yet closed: initialized ones, and those whose initialize is under way. */
  let opened = 0;
  /** The same, per key. */
  const openedBy = new Map<number, Set<McpSession>>();

  /** Closes the session once --mcp-idle-s have passed since its last tool call that ran, or sets the
   *  clock for the rest. Under a request it waits: that request's end looks again. */
  function idle(s: McpSession): void {
    clearTimeout(s.timer);
    // Busy, or already closed (DELETE, a refused initialize): no clock.
    if (s.busy > 0 || !s.transport.sessionId || sessions.get(s.transport.sessionId) !== s) return;
    const left = s.lastCall + deps.idleMs - Date.now();
    if (left <= 0) { void s.close(); return; }
    s.timer = setTimeout(() => idle(s), left);
    s.timer.unref();
  }

  /** 429 for a key that holds its --mcp-sessions-per-key, Retry-After when its first one would idle out. */
  function overShare(accountId: number): SightlineError | undefined {
    const held = openedBy.get(accountId);
    if (!held || held.size < deps.maxSessionsPerKey) return undefined;
    const soonest = Math.min(...[...held].map((s) => s.lastCall + deps.idleMs - Date.now()));
    const err = new SightlineError('rate_limited', `This key holds ${held.size} open MCP sessions, the most one key may (--mcp-sessions-per-key ${deps.maxSessionsPerKey}): end one (DELETE /mcp) or let one go idle`);
    err.retryAfter = Math.max(1, Math.ceil(soonest / 1000));
    return err;
  }

  function open(accountId: number, storageState?: PlaywrightStorageState): McpSession {
    const browser = new BrowserSession({ chromium: deps.chromium, proxy: deps.proxy, checkUrl: deps.checkUrl, storageState });
    const server = createMcpServer(browser, deps.version);
    let closed = false;
    opened++;
    let mine = openedBy.get(accountId);
    if (!mine) openedBy.set(accountId, mine = new Set());
    const session: McpSession = {
      accountId, browser, busy: 0, lastCall: Date.now(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: true,
        onsessioninitialized: (id) => { sessions.set(id, session); },
        onsessionclosed: () => { void session.close(); },
      }),
      async close() {
        if (closed) return;
        closed = true;
        opened--;
        mine.delete(session);
        if (!mine.size && openedBy.get(accountId) === mine) openedBy.delete(accountId);
        clearTimeout(session.timer);
        if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
        await browser.close();
        await server.close().catch(() => undefined);
      },
    };
    mine.add(session);
    void server.connect(session.transport);
    return session;
  }

  const route: Route = async (req) => {
    const account = await admit(deps.store, req, deps.limits);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.mcpHeaders ?? {})) if (value) headers.set(name, value);
    if (req.contentType) headers.set('content-type', req.contentType);
    let parsed: unknown;
    if (req.method === 'POST') {
      try { parsed = JSON.parse(req.body.toString('utf8')); } catch { throw new SightlineError('bad_request', 'The body is not JSON (a JSON-RPC message)'); }
    }
    const id = req.mcpHeaders?.['mcp-session-id'];
    let session: McpSession | undefined;
    if (id) {
      session = sessions.get(id);
      // Another key's session is as unknown as an expired one.
      if (!session || session.accountId !== account.id) return jsonRpcError(404, 'Unknown or expired MCP session: initialize a new one');
    } else {
      if (req.method !== 'POST') return jsonRpcError(400, 'Mcp-Session-Id header required');
      if (opens(parsed)) {
        // A session is a browser the service keeps for the key: a key that cannot pay for one call
        // does not get one (free initializes held every session before).
        if ((await deps.store.balance(account.id)).available <= 0) throw new SightlineError('insufficient_credits', 'Insufficient credits: an MCP session needs a positive balance to open (each tools/call costs 1 credit)');
        // The key's own share first: a key at its bound is told so, whatever the others hold.
        const over = overShare(account.id);
        if (over) throw over;
        // Each session may run a Chromium: without a bound, initializes would start browsers until the
        // machine runs out of memory.
        if (opened >= deps.maxSessions) {
          const err = new SightlineError('busy', `All ${deps.maxSessions} MCP sessions of this server are open (--mcp-sessions): end one (DELETE /mcp) or retry later`);
          err.retryAfter = 1;
          throw err;
        }
      }
      // A saved state sent at initialize (params._meta): the session's browser starts with it, nothing keeps it.
      let storageState: PlaywrightStorageState | undefined;
      try { storageState = opens(parsed) ? storageStateOfInitialize(parsed) : undefined; } catch (err) { throw new SightlineError('bad_request', (err as Error).message); }
      session = open(account.id, storageState);
    }
    const request = new Request(`http://${req.host || 'localhost'}/mcp`, { method: req.method, headers, body: req.method === 'POST' ? new Uint8Array(req.body) : undefined });
    const handle = async (): Promise<Reply> => {
      const response = await session.transport.handleRequest(request, { parsedBody: parsed });
      const out: Record<string, string> = {};
      const sid = response.headers.get('mcp-session-id');
      if (sid) out['mcp-session-id'] = sid;
      const reply = { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', body: await response.text(), headers: out };
      // An initialize the transport refused leaves no session: its browser never started.
      if (!id && !session.transport.sessionId) await session.close();
      return reply;
    };
    const calls = toolCalls(parsed);
    const live = session;
    live.busy++;
    /** Whether a tool ran (and was paid for): only that restarts the idle clock. */
    let ran = false;
    try {
      if (!calls) return await handle();
      try {
        return await withHold({ store: deps.store, ttlMs: deps.holdTtlMs }, req, account.id, calls * MCP_TOOL_COST, `an MCP tool call`, async () => {
          const reply = await handle();
          // The transport refused the message (no session yet, not a JSON-RPC request), or answered
          // every call with a JSON-RPC error (params not a tool call): no tool ran, so the hold is
          // voided and the answer given as it is.
          if (reply.status >= 400 || callsRefused(parsed, reply.body)) throw Object.assign(new SightlineError('bad_request', `MCP transport answered ${reply.status}`), { reply });
          ran = true;
          return reply;
        });
      } catch (err) {
        const refused = (err as { reply?: Reply }).reply;
        if (refused) return refused;
        throw err;
      }
    } finally {
      live.busy--;
      // Only a tool call that ran (the paid work) restarts the idle clock: free requests (tools/list,
      // pings, a refused call) let it run on, or they would keep a session open at no cost.
      if (ran) live.lastCall = Date.now();
      idle(live);
    }
  };

  return {
    route,
    sessions: () => sessions.size,
    async close() { await Promise.all([...sessions.values()].map((s) => s.close())); },
  };
}
