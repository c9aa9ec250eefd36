// The MCP client configs the README documents start `sightline mcp` from any folder, as MCP clients do
// (they start servers in their own working directory, never in our clone): each is started here
// exactly as written, from a fresh empty folder, and must list the tools.
//  - `sightline mcp-config`: absolute paths to this install (works today, no install step);
//  - examples/mcp-config.json: `sightline mcp` after a global install (`npm link` in the clone);
//  - examples/mcp-config.npx.json: `npx -y sightline mcp`, the config once the package is published;
//    npx runs an installed `sightline` (here the linked one) the same way as a downloaded one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
const temp = (name: string) => { const d = mkdtempSync(join(tmpdir(), `sightline-${name}-`)); dirs.push(d); return d; };
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

interface Server { command: string; args: string[]; env?: Record<string, string> }
const serverOf = (config: { mcpServers: { sightline: Server } }) => config.mcpServers.sightline;

/** Starts the configured server the way an MCP client does, in `cwd`, and lists its tools. */
async function listTools(server: Server, cwd: string, env: Record<string, string> = {}): Promise<string[]> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: { ...server.env, ...env }, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'config-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools.map((t) => t.name);
  } catch (err) {
    throw new Error(`${server.command} ${server.args.join(' ')} in ${cwd}: ${(err as Error).message}\n${stderr}`);
  } finally {
    await client.close();
  }
}

const EXPECTED = ['navigate', 'snapshot', 'click', 'type', 'read', 'screenshot', 'close'];

/** A global prefix of its own with this clone linked into it (`npm link`, as the README says). */
function linkedPrefix(): { env: Record<string, string> } {
  const prefix = temp('prefix');
  execFileSync('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ROOT, env: { ...process.env, npm_config_prefix: prefix }, stdio: 'pipe' });
  return { env: { PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, npm_config_prefix: prefix } };
}

test('`sightline mcp-config` prints absolute paths; that config lists the tools from another folder', async () => {
  const config = JSON.parse(execFileSync(process.execPath, [CLI, 'mcp-config'], { cwd: temp('anywhere'), encoding: 'utf8' }));
  const server = serverOf(config);
  assert.equal(server.command, process.execPath);
  assert.deepEqual(server.args, [CLI, 'mcp']);
  const tools = await listTools(server, temp('client'));
  for (const name of EXPECTED) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
});

test('examples/mcp-config.json (`sightline mcp` after `npm link`) lists the tools from another folder', async () => {
  const { env } = linkedPrefix();
  const server = serverOf(JSON.parse(readFileSync(join(ROOT, 'examples/mcp-config.json'), 'utf8')));
  assert.equal(server.command, 'sightline');
  const tools = await listTools(server, temp('client'), env);
  for (const name of EXPECTED) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
});

test('examples/mcp-config.npx.json (`npx -y sightline mcp`) lists the tools from another folder once sightline is installed', async () => {
  const { env } = linkedPrefix();
  const server = serverOf(JSON.parse(readFileSync(join(ROOT, 'examples/mcp-config.npx.json'), 'utf8')));
  assert.deepEqual([server.command, ...server.args], ['npx', '-y', 'sightline', 'mcp']);
  const tools = await listTools(server, temp('client'), env);
  for (const name of EXPECTED) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
});
