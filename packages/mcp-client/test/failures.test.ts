// How a connection fails, each as one typed McpClientError naming the server: bad tables, servers
// that never answer, servers that exit, repeated cursors, aborts and closes.
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/index.js';
import type { McpResourcePage } from '../src/index.js';
import { closedAfterEach, failure } from './harness.js';
import { startHttpFixture } from './http-fixture.js';
import { hostEnv, stdioServer } from './servers.js';

// Short limits keep the failing paths quick; the tests assert which error came, never how long it took.
// The start keeps its default limit where the server does start, so a loaded machine cannot fail it.
const QUICK = { env: hostEnv(), requestTimeoutMs: 500 };
const QUICK_START = { env: hostEnv(), startupTimeoutMs: 500 };

const { connect, http } = closedAfterEach();

describe('a bad table', () => {
  it.each([
    ['neither command nor url', {}, 'set exactly one of `command` (stdio) or `url` (streamable HTTP)'],
    ['both command and url', { command: 'node', url: 'http://127.0.0.1:1/mcp' }, 'set exactly one of'],
    ['a stdio key on an HTTP server', { url: 'http://127.0.0.1:1/mcp', args: ['x'] }, 'args: does not apply to a streamable HTTP server'],
    ['a url that is not http(s)', { url: 'ftp://example.com' }, 'url: expected an http(s) URL'],
    ['a negative timeout', { command: 'node', startup_timeout_sec: -1 }, 'startup_timeout_sec:'],
  ])('is InvalidConfig: %s', async (_case, server, problem) => {
    const error = await failure(McpClient.connect('broken', server, QUICK));
    expect(error.code).toBe('InvalidConfig');
    expect(error.server).toBe('broken');
    expect(error.message).toContain("MCP server 'broken': invalid [mcp_servers.broken] table: ");
    expect(error.message).toContain(problem);
  });

  it('is InvalidConfig when bearer_token_env_var names an unset variable', async () => {
    const error = await failure(McpClient.connect('remote', { url: 'http://127.0.0.1:1/mcp', bearer_token_env_var: 'NO_SUCH_TOKEN' }, QUICK));
    expect(error).toMatchObject({ code: 'InvalidConfig', message: "MCP server 'remote': bearer_token_env_var names NO_SUCH_TOKEN, which is not set; export it or remove the key" });
  });

  it('is Disabled when enabled = false, and nothing starts', async () => {
    const error = await failure(McpClient.connect('off', stdioServer('catalog', { enabled: false }), QUICK));
    expect(error).toMatchObject({ code: 'Disabled', message: "MCP server 'off': disabled in config (enabled = false)" });
  });

  it('is ConnectFailed when the command does not exist', async () => {
    const error = await failure(McpClient.connect('missing', { command: '/no/such/mcp-server' }, QUICK));
    expect(error.code).toBe('ConnectFailed');
    expect(error.message).toMatch(/^MCP server 'missing': cannot start `\/no\/such\/mcp-server`: .*ENOENT/);
  });
});

describe('a server that never answers', () => {
  it('over stdio fails the start once with StartupTimeout', async () => {
    const error = await failure(McpClient.connect('mute', stdioServer('silent'), QUICK_START));
    expect(error.code).toBe('StartupTimeout');
    expect(error.message).toBe("MCP server 'mute': `" + process.execPath + '` did not finish the MCP handshake within 500 ms; raise startup_timeout_sec if it is slow to start');
  });

  it('over HTTP fails the start once with StartupTimeout', async () => {
    const fixture = await http('silent');
    const error = await failure(McpClient.connect('mute', { url: fixture.url, startup_timeout_sec: 0.5 }, { env: hostEnv() }));
    expect(error.code).toBe('StartupTimeout');
    expect(error.message).toContain(`${fixture.url} did not finish the MCP handshake within 500 ms`);
  });

  it.each([
    ['stdio', () => Promise.resolve(stdioServer('hang-list'))],
    ['streamable HTTP', async () => ({ url: (await http('hang-list')).url })],
  ])('over %s fails a hanging request with RequestTimeout, and the client stays open', async (_transport, server) => {
    const client = await connect('slow', await server(), QUICK);
    const error = await failure(client.listResources());
    expect(error).toMatchObject({ code: 'RequestTimeout', message: "MCP server 'slow': resources/list got no answer within 500 ms" });
    expect(client.isOpen).toBe(true);
    const quicker = await failure(client.listResources({ timeoutMs: 50 }));
    expect(quicker.message).toBe("MCP server 'slow': resources/list got no answer within 50 ms");
  });

  it('is Aborted when the caller aborts the request', async () => {
    const client = await connect('slow', stdioServer('hang-list'), { env: hostEnv() });
    const controller = new AbortController();
    const pending = failure(client.listResources({ signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ code: 'Aborted', message: "MCP server 'slow': resources/list was aborted" });
  });

  it('is Closed when the client is closed during the request', async () => {
    const client = await connect('slow', stdioServer('hang-list'), { env: hostEnv() });
    const pending = failure(client.listResources());
    await client.close();
    expect((await pending).code).toBe('Closed');
    expect((await failure(client.readResource('file:///notes.txt'))).message).toBe("MCP server 'slow': resources/read file:///notes.txt: the client is closed");
  });

  it('is Aborted when the caller aborts the start', async () => {
    const controller = new AbortController();
    const pending = failure(McpClient.connect('mute', stdioServer('silent'), { env: hostEnv(), signal: controller.signal }));
    controller.abort();
    expect((await pending).code).toBe('Aborted');
  });
});

describe('a server that goes away', () => {
  it('over stdio fails the request with Disconnected, quoting its stderr, and every later call too', async () => {
    const client = await connect('flaky', stdioServer('exit-on-list'), QUICK);
    let disconnects = 0;
    client.onDisconnect(() => (disconnects += 1));
    const error = await failure(client.listResources());
    expect(error.code).toBe('Disconnected');
    expect(error.message).toMatch(/^MCP server 'flaky': resources\/list: the server has gone away/);
    expect(error.message).toContain('its stderr ends with: fixture: the catalog is corrupted, giving up');
    // The tail is for the user: what a tool may hand the model leaves it out.
    expect(error.stderrTail).toContain('fixture: the catalog is corrupted, giving up');
    expect(error.messageForModel).toBe("MCP server 'flaky': resources/list: the server has gone away");
    expect(client.isOpen).toBe(false);
    expect(disconnects).toBe(1);
    expect((await failure(client.readResource('file:///notes.txt'))).code).toBe('Disconnected');
  });

  it('over HTTP fails the next request with Disconnected once the server is gone', async () => {
    const fixture = await startHttpFixture();
    const client = await connect('remote', { url: fixture.url }, QUICK);
    await fixture.close();
    const error = await failure(client.listResources());
    expect(error.code).toBe('Disconnected');
    expect(error.message).toMatch(/^MCP server 'remote': resources\/list failed: /);
  });

  it('is ConnectFailed when nothing listens at the URL', async () => {
    const fixture = await startHttpFixture();
    await fixture.close();
    const error = await failure(McpClient.connect('remote', { url: fixture.url }, QUICK));
    expect(error.code).toBe('ConnectFailed');
    expect(error.message).toContain(`MCP server 'remote': cannot reach ${fixture.url}: `);
  });
});

it('ends paging with RepeatedCursor when the server repeats a cursor', async () => {
  const client = await connect('loop', stdioServer('repeat-cursor'), QUICK);
  const pages: McpResourcePage[] = [];
  const error = await failure((async () => {
    for await (const page of client.resourcePages()) pages.push(page);
  })());
  expect(pages.map((page) => page.nextCursor)).toEqual(['same', 'same']);
  expect(error).toMatchObject({ code: 'RepeatedCursor', message: "MCP server 'loop': resources/list repeated the cursor 'same', so paging cannot advance" });
});
