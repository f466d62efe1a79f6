// What a [mcp_servers.<name>] table sends: the stdio server's environment, the HTTP headers and the
// bearer token, and tables loaded by @skein/config used as they come.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../src/index.js';
import { closedAfterEach } from './harness.js';
import { STDIO_SERVER, hostEnv, stdioServer } from './servers.js';

const { connect, http } = closedAfterEach();

async function readText(client: McpClient, uri: string): Promise<string> {
  const [contents] = await client.readResource(uri);
  if (contents === undefined || !('text' in contents)) throw new Error(`no text for ${uri}`);
  return contents.text;
}

describe('a stdio server', () => {
  it('sees its env table and the env_vars it names from the host, not the rest of the host environment', async () => {
    const env = hostEnv({ FIXTURE_PASSED: 'from the host', FIXTURE_SECRET: 'keep me' });
    const client = await connect('envy', stdioServer('catalog', { env: { FIXTURE_SET: 'from the table' }, env_vars: ['FIXTURE_PASSED'] }), { env });
    expect(await readText(client, 'env://FIXTURE_SET')).toBe('from the table');
    expect(await readText(client, 'env://FIXTURE_PASSED')).toBe('from the host');
    expect(await readText(client, 'env://FIXTURE_SECRET')).toBe('(unset)');
  });

  it('runs in its cwd', async () => {
    const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-mcp-cwd-')));
    try {
      const client = await connect('here', stdioServer('catalog', { cwd }), { env: hostEnv() });
      expect(await readText(client, 'cwd://')).toBe(cwd);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('a streamable HTTP server', () => {
  it('gets the bearer token from bearer_token_env_var, http_headers and env_http_headers on every request', async () => {
    const fixture = await http();
    const client = await connect('remote', {
      url: fixture.url,
      bearer_token_env_var: 'FIXTURE_TOKEN',
      http_headers: { 'X-Team': 'skein' },
      env_http_headers: { 'X-From-Env': 'FIXTURE_HEADER', 'X-Unset': 'FIXTURE_NOT_SET' },
    }, { env: { FIXTURE_TOKEN: 'sekret-123', FIXTURE_HEADER: 'env-value' } });
    await client.listResources();
    const posts = fixture.requests.filter((headers) => headers['content-type'] === 'application/json');
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const headers of posts) {
      expect(headers).toMatchObject({ authorization: 'Bearer sekret-123', 'x-team': 'skein', 'x-from-env': 'env-value' });
      expect(headers['x-unset']).toBeUndefined();
    }
  });
});

describe('tables loaded by @skein/config', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
    home = undefined;
  });

  it('connect as they come, skein_skill_source included', async () => {
    home = mkdtempSync(path.join(tmpdir(), 'skein-mcp-config-'));
    const fixture = await http();
    writeFileSync(path.join(home, 'config.toml'), [
      '[mcp_servers.local]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(STDIO_SERVER)}]`,
      'startup_timeout_sec = 20',
      '[mcp_servers.remote]',
      `url = ${JSON.stringify(fixture.url)}`,
      'skein_skill_source = true',
      '',
    ].join('\n'));
    const { config } = await loadConfig({ cwd: home, env: {}, homeDir: home });
    expect(config.mcpSkillSources).toEqual(['remote']);
    for (const name of ['local', 'remote']) {
      const server = config.mcpServers[name];
      if (server === undefined) throw new Error(`no ${name} table`);
      const client = await connect(name, server, { env: hostEnv() });
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['skill://demo/alpha', 'file:///notes.txt']);
    }
  });
});
