// MCP over the app-server, as Codex 0.171.0 shows it (x2_app_server_mcp_status): a thread's servers
// report `mcpServer/startupStatus/updated` starting → ready after `thread/start` answers;
// `mcpServerStatus/list` describes them; `mcpServer/tool/call` calls a tool directly; a turn's MCP call
// is an `mcpToolCall` item with progress; `config/mcpServer/reload` starts the servers again from
// config.toml. Every message is checked against Codex's schema by the test client.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mcpFixtureServerToml, mockProviderConfigToml, sse, toolSearchCall } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

type Params = Record<string, unknown>;
const statusUpdates = (notifications: readonly unknown[]) => notifications.map((params) => params as Params).map(({ name, status, error }) => ({ name, status, error }));

describe('MCP servers over the app-server', () => {
  it('reports the start, lists the server with its tools, and calls a tool directly', async () => {
    scenario().configure({ after: mcpFixtureServerToml('fixture') });
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    await client.waitFor('mcpServer/startupStatus/updated', (params) => (params as Params)['status'] === 'ready');
    expect(client.notificationsOf('mcpServer/startupStatus/updated')).toEqual([
      { threadId, name: 'fixture', environmentId: null, status: 'starting', error: null, failureReason: null },
      { threadId, name: 'fixture', environmentId: null, status: 'ready', error: null, failureReason: null },
    ]);

    const list = (await client.request('mcpServerStatus/list', {})) as { data: Params[]; nextCursor: string | null };
    expect(list.nextCursor).toBeNull();
    expect(list.data).toHaveLength(1);
    const [fixture] = list.data;
    expect(fixture).toMatchObject({
      name: 'fixture',
      environmentId: null,
      runtimeStatus: 'connected',
      pluginId: null,
      httpOrigin: null,
      serverInfo: { name: 'skein-mcp-fixture', title: 'Skein MCP fixture', version: '1.2.3' },
      serverCapabilities: { tools: {}, resources: {} },
      toolsError: null,
      resources: [{ uri: 'fixture://notes', name: 'notes', mimeType: 'text/plain' }],
      resourceTemplates: [{ uriTemplate: 'fixture://city/{name}', name: 'city' }],
      authStatus: 'unsupported',
    });
    expect(Object.keys(fixture!['tools'] as Params)).toEqual(['get_weather', 'slow', 'fail', 'big', 'image', 'structured', 'exit', 'echo']);
    // The thread's own connections answer too.
    expect(((await client.request('mcpServerStatus/list', { threadId, detail: 'toolsAndAuthOnly' })) as { data: Params[] }).data[0]).toMatchObject({ name: 'fixture', resources: [] });

    expect(await client.request('mcpServer/tool/call', { threadId, server: 'fixture', tool: 'get_weather', arguments: { city: 'Oslo' } })).toEqual({ content: [{ type: 'text', text: 'Weather in Oslo: sunny, 21 C' }], isError: false });
    expect(await client.request('mcpServer/resource/read', { threadId, server: 'fixture', uri: 'fixture://notes' })).toEqual({ contents: [{ uri: 'fixture://notes', mimeType: 'text/plain', text: 'fixture notes\n' }] });
    await expect(client.request('mcpServer/tool/call', { threadId, server: 'fixture', tool: 'nope', arguments: {} })).rejects.toMatchObject({ code: 'RemoteError', rpcCode: -32600, message: expect.stringContaining("offers no tool 'nope'") as string });
    await expect(client.request('mcpServer/tool/call', { threadId, server: 'missing', tool: 'x' })).rejects.toMatchObject({ code: 'RemoteError', rpcCode: -32600, message: expect.stringContaining("MCP server 'missing'") as string });
  });

  it('runs a turn that searches for the tool and calls it: an mcpToolCall item with progress', async () => {
    scenario().configure({ after: mcpFixtureServerToml('fixture') });
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    scenario().model.expect([
      sse(toolSearchCall({ query: 'wait a while' }, { callId: 'call_search' }), completed()),
      sse(functionCall('slow', { ms: 20 }, { namespace: 'mcp__fixture', callId: 'call_slow' }), completed()),
      sse(assistantMessage('Waited.'), completed()),
    ]);
    const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'wait', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);

    const mcpItems = (method: string) => client.notificationsOf(method).map((params) => (params as { item: Params }).item).filter((item) => item['type'] === 'mcpToolCall');
    expect(mcpItems('item/started')).toEqual([
      { type: 'mcpToolCall', id: 'call_slow', server: 'fixture', tool: 'slow', status: 'inProgress', arguments: { ms: 20 }, mcpAppResourceUri: null, appContext: null, pluginId: null, environmentId: null, readOnlyHint: null, result: null, error: null, durationMs: null },
    ]);
    expect(mcpItems('item/completed')).toEqual([
      expect.objectContaining({ id: 'call_slow', status: 'completed', result: { content: [{ type: 'text', text: 'waited 20 ms' }], structuredContent: null }, error: null, durationMs: expect.any(Number) as number }),
    ]);
    expect(client.notificationsOf('item/mcpToolCall/progress')).toEqual([
      { threadId, turnId: answer.turn.id, itemId: 'call_slow', message: 'step 1' },
      { threadId, turnId: answer.turn.id, itemId: 'call_slow', message: 'step 2' },
    ]);
    // thread/read rebuilds the item from the rollout.
    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { items: Params[] }[] } };
    const items = read.thread.turns[0]!.items;
    expect(items.map((item) => item['type'])).toEqual(['userMessage', 'mcpToolCall', 'agentMessage']);
    expect(items[1]).toMatchObject({ id: 'call_slow', server: 'fixture', tool: 'slow', status: 'completed', arguments: { ms: 20 }, result: { content: [{ type: 'text', text: 'waited 20 ms' }] } });
  });

  it('reports a server that cannot start as failed; the thread still runs turns', async () => {
    scenario().configure({ after: '[mcp_servers.broken]\ncommand = "/nonexistent/mcp-server"\n' });
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    const failed = (await client.waitFor('mcpServer/startupStatus/updated', (params) => (params as Params)['status'] === 'failed')) as Params;
    expect(failed).toMatchObject({ threadId, name: 'broken', status: 'failed', error: expect.stringContaining('/nonexistent/mcp-server') as string });
    const [status] = ((await client.request('mcpServerStatus/list', { threadId })) as { data: Params[] }).data;
    expect(status).toMatchObject({ name: 'broken', runtimeStatus: 'failed', tools: {}, toolsError: expect.stringContaining('/nonexistent/mcp-server') as string, serverInfo: null });
  });

  it('starts the servers again from config.toml on config/mcpServer/reload', async () => {
    scenario().configure({ after: mcpFixtureServerToml('first') });
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    await client.waitFor('mcpServer/startupStatus/updated', (params) => (params as Params)['name'] === 'first' && (params as Params)['status'] === 'ready');
    writeFileSync(path.join(scenario().home.home, 'config.toml'), `${mockProviderConfigToml(scenario().model.url)}${mcpFixtureServerToml('second')}`);
    expect(await client.request('config/mcpServer/reload', {})).toEqual({});
    await client.waitFor('mcpServer/startupStatus/updated', (params) => (params as Params)['name'] === 'second' && (params as Params)['status'] === 'ready');
    expect(statusUpdates(client.notificationsOf('mcpServer/startupStatus/updated')).map(({ name, status }) => `${String(name)}:${String(status)}`)).toEqual(['first:starting', 'first:ready', 'second:starting', 'second:ready']);
    const list = (await client.request('mcpServerStatus/list', { threadId })) as { data: Params[] };
    expect(list.data.map((server) => server['name'])).toEqual(['second']);
    expect(((await client.request('mcpServerStatus/list', {})) as { data: Params[] }).data.map((server) => server['name'])).toEqual(['second']);
  });
});
