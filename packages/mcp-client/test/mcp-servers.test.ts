// The manager: lazy starts, one connection per server, reconnects after an exit, closing them all.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { McpServers } from '../src/index.js';
import { failure } from './harness.js';
import { hostEnv, stdioServer } from './servers.js';

let scratch: string;
let startLog: string;
let servers: McpServers | undefined;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-mcp-servers-'));
  startLog = path.join(scratch, 'starts.log');
});
afterEach(async () => {
  await servers?.close();
  servers = undefined;
  rmSync(scratch, { recursive: true, force: true });
});

function starts(): number {
  return existsSync(startLog) ? readFileSync(startLog, 'utf8').split('\n').filter((line) => line !== '').length : 0;
}
function manager(tables: Parameters<typeof stdioServer>[1] = {}): McpServers {
  servers = new McpServers(
    {
      skills: stdioServer('catalog', { skein_skill_source: true, ...tables }),
      flaky: stdioServer('exit-on-list'),
      mute: stdioServer('silent'),
      tools: stdioServer('catalog'),
      off: stdioServer('catalog', { enabled: false, skein_skill_source: true }),
    },
    { env: hostEnv({ FIXTURE_START_LOG: startLog }), requestTimeoutMs: 5_000 },
  );
  return servers;
}
it('names the enabled servers and the skill sources among them', () => {
  const all = manager();
  expect(all.names()).toEqual(['flaky', 'mute', 'skills', 'tools']);
  expect(all.skillSources()).toEqual(['skills']);
});

it('starts nothing until a client is asked for, then shares one connection between callers', async () => {
  const all = manager({ env_vars: ['FIXTURE_START_LOG'] });
  expect(starts()).toBe(0);
  const [first, second] = await Promise.all([all.client('skills'), all.client('skills')]);
  expect(first).toBe(second);
  expect(await all.client('skills')).toBe(first);
  expect(starts()).toBe(1);
  expect((await first.listResources()).nextCursor).toBe('page-2');
});

it('drops a server that went away, and the next client() starts it again', async () => {
  const all = manager();
  const flaky = await all.client('flaky');
  expect((await failure(flaky.listResources())).code).toBe('Disconnected');
  const again = await all.client('flaky');
  expect(again).not.toBe(flaky);
  expect(again.isOpen).toBe(true);
});

it('replaces a client a caller closed', async () => {
  const all = manager();
  const closed = await all.client('tools');
  await closed.close();
  const fresh = await all.client('tools');
  expect(fresh).not.toBe(closed);
  expect((await fresh.listResources()).resources.length).toBe(2);
});

it('answers UnknownServer and Disabled without starting anything', async () => {
  const all = manager();
  expect(await failure(all.client('nope'))).toMatchObject({ code: 'UnknownServer', message: "MCP server 'nope': no [mcp_servers.nope] table; configured: flaky, mute, off, skills, tools" });
  expect((await failure(all.client('off'))).code).toBe('Disabled');
});

it('lets one caller stop waiting without stopping the shared start', async () => {
  const all = manager();
  const controller = new AbortController();
  controller.abort();
  expect((await failure(all.client('tools', { signal: controller.signal }))).code).toBe('Aborted');
  expect((await all.client('tools')).isOpen).toBe(true);
});

it('closes every client, and refuses new ones after', async () => {
  const all = manager();
  const skills = await all.client('skills');
  const tools = await all.client('tools');
  await all.close();
  expect([skills.isOpen, tools.isOpen]).toEqual([false, false]);
  expect((await failure(skills.listResources())).code).toBe('Closed');
  expect((await failure(all.client('skills'))).code).toBe('Closed');
});

it('fails a start in progress with Closed when the manager closes', async () => {
  const all = manager();
  const pending = failure(all.client('mute'));
  await all.close();
  expect(await pending).toMatchObject({ code: 'Closed', message: "MCP server 'mute': the MCP servers were closed while it started" });
});
