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
    expect(Object.keys(fixture!['tools'] as Params)).toEqual(['get_weather', 'slow', 'fail', 'big', 'image', 'structured', 'exit', 'echo', 'ask', 'ask_url']);
    // The thread's own connections answer too.
    expect(((await client.request('mcpServerStatus/list', { threadId, detail: 'toolsAndAuthOnly' })) as { data: Params[] }).data[0]).toMatchObject({ name: 'fixture', resources: [] });

    expect(await client.request('mcpServer/tool/call', { threadId, server: 'fixture', tool: 'get_weather', arguments: { city: 'Oslo' } })).toEqual({ content: [{ type: 'text', text: 'Weather in Oslo: sunny, 21 C' }], isError: false });
    expect(await client.request('mcpServer/resource/read', { threadId, server: 'fixture', uri: 'fixture://notes' })).toEqual({ contents: [{ uri: 'fixture://notes', mimeType: 'text/plain', text: 'fixture notes\n' }] });
    await expect(client.request('mcpServer/tool/call', { threadId, server: 'fixture', tool: 'nope', arguments: {} })).rejects.toMatchObject({ code: 'RemoteError', rpcCode: -32600, message: expect.stringContaining("offers no tool 'nope'") as string });
    await expect(client.request('mcpServer/tool/call', { threadId, server: 'missing', tool: 'x' })).rejects.toMatchObject({ code: 'RemoteError', rpcCode: -32600, message: expect.stringContaining("MCP server 'missing'") as string });
  });

  it('runs a turn that searches for the tool and calls it: an mcpToolCall item with progress', async () => {
    scenario().configure({ after: mcpFixtureServerToml('fixture', 'tools', ['default_tools_approval_mode = "approve"']) });
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
    // Codex's fields, in its order (probed).
    const [started] = mcpItems('item/started');
    expect(Object.keys(started!)).toEqual(['type', 'id', 'server', 'environmentId', 'tool', 'status', 'arguments', 'appContext', 'mcpAppUi', 'pluginId', 'readOnlyHint', 'result', 'error', 'durationMs', 'startedAtMs', 'completedAtMs']);
    expect(started).toEqual({ type: 'mcpToolCall', id: 'call_slow', server: 'fixture', environmentId: null, tool: 'slow', status: 'inProgress', arguments: { ms: 20 }, appContext: null, mcpAppUi: null, pluginId: null, readOnlyHint: null, result: null, error: null, durationMs: null, startedAtMs: started!['startedAtMs'], completedAtMs: null });
    expect(mcpItems('item/completed')).toEqual([
      expect.objectContaining({ id: 'call_slow', status: 'completed', result: { content: [{ type: 'text', text: 'waited 20 ms' }], structuredContent: null, _meta: null }, error: null, durationMs: expect.any(Number) as number }),
    ]);
    // Step 1 always arrives. The MCP SDK can drop step 2 when a busy machine reads it in one chunk with
    // the result (see mcp-client's tools test), so it is waited for a little, then taken as dropped.
    const steps = [
      { threadId, turnId: answer.turn.id, itemId: 'call_slow', message: 'step 1' },
      { threadId, turnId: answer.turn.id, itemId: 'call_slow', message: 'step 2' },
    ];
    await client.waitFor('item/mcpToolCall/progress', (params) => (params as { message: string }).message === 'step 2', 2_000).catch(() => undefined);
    const progress = client.notificationsOf('item/mcpToolCall/progress');
    expect(progress.length === 1 ? [...progress, steps[1]] : progress).toEqual(steps);
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

  it('asks for a call that needs approval as mcpServer/elicitation/request; a session approval holds, a decline fails the call', async () => {
    scenario().configure({ after: mcpFixtureServerToml('fixture') });
    const client = await scenario().connect();
    const asked: Params[] = [];
    const answers = [{ action: 'accept', content: {}, _meta: { persist: 'session' } }, { action: 'decline', content: null, _meta: null }];
    client.onServerRequest((request) => {
      asked.push({ method: request.method, ...(request.params as Params) });
      // The first echo is allowed for the session; the other tool is declined.
      return (request.params as { _meta: { tool_name: string } })._meta.tool_name === 'echo' ? answers[0] : answers[1];
    });
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5', approvalPolicy: 'on-request' });
    scenario().model.expect([
      sse(functionCall('echo', { text: 'hi' }, { namespace: 'mcp__fixture', callId: 'call_1' }), completed()),
      sse(functionCall('echo', { text: 'again' }, { namespace: 'mcp__fixture', callId: 'call_2' }), completed()),
      sse(functionCall('big', { bytes: 3 }, { namespace: 'mcp__fixture', callId: 'call_3' }), completed()),
      sse(functionCall('get_weather', { city: 'Oslo' }, { namespace: 'mcp__fixture', callId: 'call_4' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);

    // Asked twice: the first echo (not the second: allowed for the session) and big; the read-only get_weather not at all.
    expect(asked).toEqual([
      {
        method: 'mcpServer/elicitation/request',
        threadId,
        turnId: answer.turn.id,
        serverName: 'fixture',
        environmentId: null,
        mode: 'form',
        _meta: { codex_approval_kind: 'mcp_tool_call', persist: ['session', 'always'], tool_name: 'echo', tool_description: 'Echoes its arguments back.', tool_params: { text: 'hi' }, tool_params_display: [{ name: 'text', value: 'hi', display_name: 'text' }] },
        message: expect.stringContaining('echo') as string,
        requestedSchema: { type: 'object', properties: {} },
      },
      expect.objectContaining({ _meta: expect.objectContaining({ tool_name: 'big', tool_params: { bytes: 3 } }) as unknown }),
    ]);
    const completedItems = client.notificationsOf('item/completed').map((params) => (params as { item: Params }).item).filter((item) => item['type'] === 'mcpToolCall');
    expect(completedItems.map((item) => [item['id'], item['status'], item['error']])).toEqual([
      ['call_1', 'completed', null],
      ['call_2', 'completed', null],
      ['call_3', 'failed', { message: 'user rejected MCP tool call' }],
      ['call_4', 'completed', null],
    ]);
    const declined = scenario().model.requests[3]!.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === 'call_3');
    expect(declined?.['output']).toEqual([{ type: 'input_text', text: expect.stringMatching(/^Wall time: \d+\.\d{4} seconds\nOutput:$/) as string }, { type: 'input_text', text: 'user rejected MCP tool call' }]);
    // While it waited, the thread said so.
    expect(client.notificationsOf('thread/status/changed')).toContainEqual({ threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
  });

  it("passes a server's own form and URL elicitations to the client and its answers back", async () => {
    scenario().configure({ after: mcpFixtureServerToml('fixture') });
    const client = await scenario().connect();
    const asked: Params[] = [];
    client.onServerRequest((request) => {
      const params = request.params as Params;
      asked.push(params);
      return params['mode'] === 'form' ? { action: 'accept', content: { name: 'Ada' }, _meta: null } : { action: 'cancel', content: null, _meta: null };
    });
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5', approvalPolicy: 'on-request' });
    scenario().model.expect([
      sse(functionCall('ask', {}, { namespace: 'mcp__fixture', callId: 'call_ask' }), completed()),
      sse(functionCall('ask_url', {}, { namespace: 'mcp__fixture', callId: 'call_url' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
    expect(asked).toEqual([
      { threadId, turnId: answer.turn.id, serverName: 'fixture', environmentId: null, mode: 'form', _meta: null, message: 'Who is asking?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } },
      { threadId, turnId: answer.turn.id, serverName: 'fixture', environmentId: null, mode: 'url', _meta: null, message: 'Sign in to continue.', url: 'https://example.com/sign-in', elicitationId: 'sign-in-1' },
    ]);
    const outputOf = (request: number, callId: string) => scenario().model.requests[request]!.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.['output'] as { text: string }[];
    expect(outputOf(1, 'call_ask')[1]!.text).toBe('{"action":"accept","content":{"name":"Ada"}}');
    expect(outputOf(2, 'call_url')[1]!.text).toBe('{"action":"cancel"}');
  });
});
