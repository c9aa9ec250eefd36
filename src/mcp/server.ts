// The MCP server: the tools of tools.ts behind the SDK's low-level Server (our input schemas are JSON
// Schema from typebox, which the high-level McpServer does not take), over stdio for `sightline mcp`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BrowserSession, type SessionOptions } from './session.ts';
import { callTool, toolList } from './tools.ts';

export const MCP_INSTRUCTIONS = `Sightline drives a browser. navigate to a URL, then snapshot (with a goal) to get the page's elements ranked for it, one line each: "<id> <role> <flags>: <text>". Act on them by id (click, type, select_option, check, hover, press_key, scroll). snapshot since_last=true shows only what changed. read gives the page as Markdown; screenshot annotate=true draws the ids.`;

/** An MCP server over one browser session; `onClose` runs when the session's browser should end. */
export function createMcpServer(session: BrowserSession, version: string): Server {
  const server = new Server({ name: 'sightline', version }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(session, request.params.name, request.params.arguments));
  return server;
}

/** `sightline mcp`: serves over stdin/stdout until the client goes; the browser ends with it. */
export async function serveStdio(options: SessionOptions, version: string): Promise<void> {
  const session = new BrowserSession(options);
  const server = createMcpServer(session, version);
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  const shutdown = () => {
    closing ??= session.close().finally(() => server.close().catch(() => undefined)).finally(() => process.exit(0));
    return closing;
  };
  transport.onclose = () => { void shutdown(); };
  process.stdin.on('end', () => { void shutdown(); });
  process.stdin.on('close', () => { void shutdown(); });
  process.on('SIGTERM', () => { void shutdown(); });
  process.on('SIGINT', () => { void shutdown(); });
  process.on('SIGHUP', () => { void shutdown(); });
  await server.connect(transport);
}
