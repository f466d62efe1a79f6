// MCP tools and tool_search against the mock model and a real MCP server (test-support's fixture,
// over stdio): what the model is offered (the resource tools, tool_search, the `<tools>` part), what
// a search answers, how an MCP call's output and items look, and the faults a call can meet.
import { readFileSync } from 'node:fs';
import { defineExtension, defineFunctionTool, ExtensionRegistryBuilder } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, MCP_FIXTURE_SERVER, sse, startMcpHttpFixture, startMockResponsesServer, toolSearchCall, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import * as z from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../src/index.js';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

let server: MockResponsesServer;
let workspace: TestWorkspace;

beforeEach(async () => {
  server = await startMockResponsesServer();
  workspace = createTestWorkspace();
});
afterEach(async () => {
  await workspace.close();
  await server.close();
});

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
// One `-c` override per server: each override is checked as a layer of its own.
const fixture = (name: string, behaviour = 'tools', extra: readonly string[] = []) => [
  `mcp_servers.${name}={command=${JSON.stringify(process.execPath)}, args=[${JSON.stringify(MCP_FIXTURE_SERVER)}, ${JSON.stringify(behaviour)}]${extra.map((entry) => `, ${entry}`).join('')}}`,
];
const mcpThread = (overrides: readonly string[], extra: Partial<Parameters<typeof startTestThread>[1]> = {}) =>
  startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'model="gpt-5.5"', ...overrides], ...extra });
// Each test names the shape it reads.
const inputOf = <T = Record<string, unknown>>(request: CapturedRequest, type: string, callId: string): T => request.body!.input.find((item) => item.type === type && item.call_id === callId) as unknown as T;
const toolNames = (request: CapturedRequest) => request.body!.tools!.map((tool) => (tool as { name?: string; type: string }).name ?? tool.type);
const mcpItems = (events: readonly CoreEvent[]) => events.flatMap((event) => (event.type === 'turnItem' && event.item.kind === 'mcpToolCall' ? [{ phase: event.phase, item: event.item }] : []));

describe('MCP tools behind tool_search', () => {
  it('offers the resource tools and tool_search, lists the server in <tools>, finds its tool and calls it', async () => {
    server.expect([
      sse(toolSearchCall({ query: 'weather for a city', limit: 2 }, { callId: 'call_search' }), completed()),
      sse(functionCall('get_weather', { city: 'Paris' }, { namespace: 'mcp__fixture', callId: 'call_weather' }), completed()),
      sse(assistantMessage('It is sunny in Paris, 21 C.'), completed()),
    ]);
    const { thread, events } = await mcpThread(fixture('fixture'));
    const outcome = await thread.runTurn(say('What is the weather in Paris? Use the weather tool.'));
    expect(outcome).toMatchObject({ status: 'completed' });
    const [first, second, third] = server.requests;

    // Codex's tool order: the resource tools right after write_stdin; tool_search after the others.
    expect(toolNames(first!)).toEqual(['exec_command', 'write_stdin', 'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'request_user_input', 'apply_patch', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
    expect(first!.body!.tools!.at(-2)).toMatchObject({ type: 'tool_search', execution: 'client', parameters: { type: 'object', properties: { limit: { type: 'number' }, query: { type: 'string' } }, required: ['query'], additionalProperties: false } });
    // The `<tools>` part closes the first developer message and names the server's namespace.
    // (The first developer message holds the base instructions; the second the policy parts.)
    const developer = first!.body!.input.filter((item) => item.type === 'message' && item.role === 'developer')[1] as unknown as { content: { text: string }[] };
    const toolsPart = developer.content.at(-1)!.text;
    expect(toolsPart).toMatch(/^<tools>\n.*\n- mcp__fixture\n- multi_agent_v1: .*\n<\/tools>$/s);

    // The search answers with the matching tool only, in its namespace, marked defer_loading; `tools` stays the same.
    expect(inputOf(second!, 'tool_search_output', 'call_search')).toMatchObject({
      type: 'tool_search_output',
      id: expect.stringMatching(/^tso_/) as string,
      status: 'completed',
      execution: 'client',
      tools: [
        {
          type: 'namespace',
          name: 'mcp__fixture',
          tools: [{ type: 'function', name: 'get_weather', description: 'Current weather for a city.', strict: false, defer_loading: true, parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city name.' } }, required: ['city'] } }],
        },
      ],
    });
    const namespace = inputOf<{ tools: { tools: { name: string }[] }[] }>(second!, 'tool_search_output', 'call_search').tools[0]!.tools;
    expect(namespace.map((tool) => tool.name)).toEqual(['get_weather']);
    expect(second!.body!.tools).toEqual(first!.body!.tools);

    // The call's output: a wall-time header, then one part per content block.
    const output = inputOf<{ output: unknown }>(third!, 'function_call_output', 'call_weather');
    expect(output.output).toEqual([
      { type: 'input_text', text: expect.stringMatching(/^Wall time: \d+\.\d{4} seconds\nOutput:$/) as string },
      { type: 'input_text', text: 'Weather in Paris: sunny, 21 C' },
    ]);
    expect(mcpItems(events)).toEqual([
      { phase: 'started', item: expect.objectContaining({ id: 'call_weather', server: 'fixture', tool: 'get_weather', arguments: { city: 'Paris' }, status: 'inProgress', result: null, error: null, readOnlyHint: true }) as unknown },
      { phase: 'completed', item: expect.objectContaining({ id: 'call_weather', status: 'completed', result: { content: [{ type: 'text', text: 'Weather in Paris: sunny, 21 C' }], structuredContent: null }, error: null, durationMs: expect.any(Number) as number }) as unknown },
    ]);
    // The server reported its start.
    expect(events.filter((event) => event.type === 'mcpServerStatus')).toEqual([
      { type: 'mcpServerStatus', name: 'fixture', status: 'starting', error: null },
      { type: 'mcpServerStatus', name: 'fixture', status: 'ready', error: null },
    ]);
    // The rollout keeps the search and its output, so a resumed thread replays them.
    const rollout = readFileSync(thread.path!, 'utf8');
    expect(rollout).toContain('"type":"tool_search_call"');
    expect(rollout).toContain('"type":"tool_search_output"');
  });

  it('honours the limit, caps a huge one, and finds nothing for an empty query', async () => {
    server.expect([
      sse(toolSearchCall({ query: 'weather', limit: 1 }, { callId: 'call_a' }), toolSearchCall({ query: 'long text', limit: 100000 }, { callId: 'call_b' }), completed()),
      sse(toolSearchCall({ query: '' }, { callId: 'call_c' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread } = await mcpThread(fixture('fixture'));
    await thread.runTurn(say('search'));
    const [, second, third] = server.requests;
    const found = (request: CapturedRequest, callId: string) => inputOf<{ tools: { tools: { name: string }[] }[] }>(request, 'tool_search_output', callId).tools.flatMap((group) => group.tools.map((tool) => tool.name));
    expect(found(second!, 'call_a')).toEqual(['get_weather']);
    expect(found(second!, 'call_b')).toContain('big');
    expect(found(second!, 'call_b').length).toBeLessThanOrEqual(8);
    expect(found(third!, 'call_c')).toEqual([]);
  });

  it('turns a failing tool, bad arguments and a server that dies mid-call into outputs the model reads; the server is started again', async () => {
    const startLog = `${workspace.home}/starts.log`;
    server.expect([
      sse(functionCall('fail', {}, { namespace: 'mcp__fixture', callId: 'call_fail' }), functionCall('get_weather', { city: 7 }, { namespace: 'mcp__fixture', callId: 'call_bad' }), completed()),
      sse(functionCall('exit', {}, { namespace: 'mcp__fixture', callId: 'call_exit' }), completed()),
      sse(functionCall('echo', { text: 'back again' }, { namespace: 'mcp__fixture', callId: 'call_echo' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread, events } = await mcpThread(fixture('fixture', 'tools', [`env={FIXTURE_START_LOG=${JSON.stringify(startLog)}}`, 'default_tools_approval_mode="approve"']));
    expect(await thread.runTurn(say('go'))).toMatchObject({ status: 'completed' });
    const [, second, third, fourth] = server.requests;
    expect(inputOf(second!, 'function_call_output', 'call_fail')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: 'the fixture failed on purpose' }] });
    // A failure answers in the same form: the header, then why.
    expect(inputOf(second!, 'function_call_output', 'call_bad')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: expect.stringMatching(/^the arguments do not fit get_weather's input schema: .*city must be string/) as string }] });
    // The model is told the server went away; its stderr (which may hold anything) goes to the user only.
    const exitOutput = inputOf<{ output: { text: string }[] }>(third!, 'function_call_output', 'call_exit');
    expect(exitOutput.output[1]?.text).toMatch(/^MCP server 'fixture': tools\/call exit: the server has gone away$/);
    const exitItem = mcpItems(events).find((entry) => entry.phase === 'completed' && entry.item.id === 'call_exit');
    expect(exitItem?.item.error?.message).toContain('its stderr ends with: fixture: exiting mid-call');
    expect(inputOf(fourth!, 'function_call_output', 'call_echo')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: '{"text":"back again"}' }] });
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(2);
    const completedItems = mcpItems(events).filter((entry) => entry.phase === 'completed').map((entry) => [entry.item.id, entry.item.status]);
    expect(completedItems).toEqual([['call_fail', 'failed'], ['call_bad', 'failed'], ['call_exit', 'failed'], ['call_echo', 'completed']]);
  });

  it('does not wait for a slow server: the first request goes out while it starts; a failed server is reported and its tools are absent', async () => {
    server.expect([sse(assistantMessage('hello'), completed())]);
    const { thread, events } = await mcpThread([...fixture('slow', 'tools,start-delay=10000'), 'mcp_servers.broken={command="/nonexistent/mcp-server"}']);
    expect(await thread.runTurn(say('hi'))).toMatchObject({ status: 'completed' });
    const statuses = events.filter((event) => event.type === 'mcpServerStatus');
    expect(statuses).toContainEqual({ type: 'mcpServerStatus', name: 'slow', status: 'starting', error: null });
    expect(statuses.some((event) => event.type === 'mcpServerStatus' && event.name === 'slow' && event.status === 'ready')).toBe(false);
    await expect.poll(() => events.find((event) => event.type === 'mcpServerStatus' && event.name === 'broken' && event.status === 'failed')).toMatchObject({ error: expect.stringContaining('/nonexistent/mcp-server') as string });
    await thread.close();
  });
});

describe('MCP tool approvals', () => {
  it('refuses a call that needs approval under approval_policy = "never" with a sandbox; a read-only tool runs; approve mode never asks', async () => {
    server.expect([
      sse(functionCall('echo', { text: 'hi' }, { namespace: 'mcp__fixture', callId: 'call_echo' }), functionCall('get_weather', { city: 'Rome' }, { namespace: 'mcp__fixture', callId: 'call_weather' }), functionCall('echo', { text: 'ok' }, { namespace: 'mcp__trusted', callId: 'call_trusted' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread, events } = await mcpThread([...fixture('fixture'), ...fixture('trusted', 'tools', ['default_tools_approval_mode="approve"']), 'sandbox_mode="read-only"']);
    expect(await thread.runTurn(say('go'))).toMatchObject({ status: 'completed' });
    const second = server.requests[1]!;
    expect(inputOf(second, 'function_call_output', 'call_echo')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: 'MCP tool call requires approval, but approval policy is never' }] });
    expect(inputOf(second, 'function_call_output', 'call_weather')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: 'Weather in Rome: sunny, 21 C' }] });
    expect(inputOf(second, 'function_call_output', 'call_trusted')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: '{"text":"ok"}' }] });
    const refused = mcpItems(events).find((entry) => entry.phase === 'completed' && entry.item.id === 'call_echo');
    expect(refused?.item).toMatchObject({ status: 'failed', error: { message: 'MCP tool call requires approval, but approval policy is never' }, result: null });
  });

  it('runs every call without asking under danger-full-access with approval_policy = "never"', async () => {
    server.expect([sse(functionCall('echo', { text: 'free' }, { namespace: 'mcp__fixture', callId: 'call_echo' }), completed()), sse(assistantMessage('done'), completed())]);
    const { thread } = await mcpThread([...fixture('fixture'), 'sandbox_mode="danger-full-access"']);
    await thread.runTurn(say('go'));
    expect(inputOf(server.requests[1]!, 'function_call_output', 'call_echo')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: '{"text":"free"}' }] });
  });
});

describe('more MCP paths', () => {
  it('calls a streamable-HTTP server the same way', async () => {
    const http = await startMcpHttpFixture();
    try {
      server.expect([sse(functionCall('get_weather', { city: 'Quito' }, { namespace: 'mcp__remote', callId: 'call_remote' }), completed()), sse(assistantMessage('done'), completed())]);
      const { thread } = await mcpThread([`mcp_servers.remote={url=${JSON.stringify(http.url)}}`]);
      await thread.runTurn(say('go'));
      expect(inputOf(server.requests[1]!, 'function_call_output', 'call_remote')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: 'Weather in Quito: sunny, 21 C' }] });
      await thread.close();
    } finally {
      await http.close();
    }
  });

  it("searches an extension's deferred tools too, and lists their namespace in <tools>", async () => {
    const ticket = defineFunctionTool({
      spec: { type: 'function', name: 'open_ticket', description: 'Open a support ticket.', strict: false, parameters: { type: 'object', properties: { title: { type: 'string', description: 'Ticket title' } } } },
      arguments: z.object({ title: z.string() }),
      handle: (args) => Promise.resolve({ output: `opened: ${args.title}`, success: true }),
    });
    const extensions = new ExtensionRegistryBuilder()
      .add(defineExtension({ id: 'helpdesk', tools: { tools: () => Promise.resolve([{ kind: 'namespace' as const, name: 'helpdesk', description: 'The help desk.', exposure: 'deferred' as const, tools: [ticket] }]) } }))
      .build();
    server.expect([
      sse(toolSearchCall({ query: 'support ticket' }, { callId: 'call_search' }), completed()),
      sse(functionCall('open_ticket', { title: 'Broken' }, { namespace: 'helpdesk', callId: 'call_ticket' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread } = await mcpThread([], { extensions });
    await thread.runTurn(say('go'));
    const [first, second, third] = server.requests;
    expect(toolNames(first!)).toContain('tool_search');
    expect(toolNames(first!)).not.toContain('helpdesk');
    const developer = first!.body!.input.filter((item) => item.type === 'message' && item.role === 'developer')[1] as unknown as { content: { text: string }[] };
    expect(developer.content.at(-1)!.text).toContain('\n- helpdesk: The help desk.\n');
    expect(inputOf(second!, 'tool_search_output', 'call_search')).toMatchObject({ tools: [{ type: 'namespace', name: 'helpdesk', tools: [{ name: 'open_ticket', defer_loading: true }] }] });
    expect(inputOf(third!, 'function_call_output', 'call_ticket')).toMatchObject({ output: 'opened: Broken' });
  });

  it('cuts a 10 MB result to the tool output limit in history, and ends a call that outlives tool_timeout_sec', async () => {
    server.expect([
      sse(functionCall('big', { bytes: 10_000_000 }, { namespace: 'mcp__fixture', callId: 'call_big' }), completed()),
      sse(functionCall('slow', { ms: 5_000 }, { namespace: 'mcp__tight', callId: 'call_slow' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread } = await mcpThread([...fixture('fixture', 'tools', ['default_tools_approval_mode="approve"']), ...fixture('tight', 'tools', ['default_tools_approval_mode="approve"', 'tool_timeout_sec=0.3'])]);
    await thread.runTurn(say('go'));
    const big = inputOf<{ output: { text: string }[] }>(server.requests[1]!, 'function_call_output', 'call_big').output[1]!.text;
    expect(big.length).toBeLessThan(100_000);
    expect(big).toMatch(/tokens truncated/);
    expect(inputOf(server.requests[2]!, 'function_call_output', 'call_slow')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: expect.stringContaining('got no answer within 300 ms') as string }] });
    // Ten megabytes through a real server and the history: seconds alone, far more on a busy machine.
  }, 120_000);

  it('keeps the search in history across a resume: the found tool is still called by name', async () => {
    server.expect([
      sse(toolSearchCall({ query: 'weather' }, { callId: 'call_search' }), completed()),
      sse(assistantMessage('found it'), completed()),
      sse(functionCall('get_weather', { city: 'Lagos' }, { namespace: 'mcp__fixture', callId: 'call_after' }), completed()),
      sse(assistantMessage('done'), completed()),
    ]);
    const opened = await mcpThread(fixture('fixture'));
    const { thread } = opened;
    await thread.runTurn(say('find'));
    await thread.close();
    const manager = await opened.newManager();
    const resumed = await manager.resume(thread.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('use it'));
    const [, , third, fourth] = server.requests;
    expect(third!.body!.input.map((item) => item.type)).toEqual(expect.arrayContaining(['tool_search_call', 'tool_search_output']));
    expect(inputOf(fourth!, 'function_call_output', 'call_after')).toMatchObject({ output: [{ type: 'input_text' }, { type: 'input_text', text: 'Weather in Lagos: sunny, 21 C' }] });
    await resumed.close();
  });

  it('lists and reads resources through the resource tools; a cursor without a server is refused', async () => {
    server.expect([
      sse(
        functionCall('list_mcp_resources', {}, { callId: 'call_list' }),
        functionCall('list_mcp_resource_templates', { server: 'fixture' }, { callId: 'call_templates' }),
        functionCall('read_mcp_resource', { server: 'fixture', uri: 'fixture://notes' }, { callId: 'call_read' }),
        functionCall('list_mcp_resources', { cursor: 'x' }, { callId: 'call_cursor' }),
        completed(),
      ),
      sse(assistantMessage('done'), completed()),
    ]);
    const { thread } = await mcpThread(fixture('fixture'));
    await thread.runTurn(say('resources'));
    const second = server.requests[1]!;
    const output = (callId: string) => inputOf<{ output: string }>(second, 'function_call_output', callId).output;
    expect(JSON.parse(output('call_list'))).toEqual({ resources: [{ server: 'fixture', uri: 'fixture://notes', name: 'notes', mimeType: 'text/plain' }] });
    expect(JSON.parse(output('call_templates'))).toEqual({ resourceTemplates: [{ server: 'fixture', uriTemplate: 'fixture://city/{name}', name: 'city' }] });
    expect(JSON.parse(output('call_read'))).toEqual({ server: 'fixture', uri: 'fixture://notes', contents: [{ uri: 'fixture://notes', mimeType: 'text/plain', text: 'fixture notes\n' }] });
    expect(output('call_cursor')).toContain('a cursor belongs to one server');
  });

  it('reports a server that misses its startup timeout as failed, and keeps the first of two tools with one name', async () => {
    server.expect([sse(toolSearchCall({ query: 'weather city' }, { callId: 'call_search' }), completed()), sse(assistantMessage('done'), completed())]);
    const { thread, events } = await mcpThread([...fixture('late', 'tools,start-delay=5000', ['startup_timeout_sec=0.3']), ...fixture('twice', 'tools,duplicate')]);
    await thread.runTurn(say('go'));
    const late = events.find((event) => event.type === 'mcpServerStatus' && event.name === 'late' && event.status === 'failed');
    expect(late).toMatchObject({ error: expect.stringContaining('did not finish the MCP handshake within 300 ms') as string });
    expect(events).toContainEqual({ type: 'warning', message: "MCP server 'twice' lists two tools named 'get_weather'; the first is offered" });
    const found = inputOf<{ tools: { name: string; tools: { name: string }[] }[] }>(server.requests[1]!, 'tool_search_output', 'call_search').tools;
    expect(found.map((group) => group.name)).toEqual(['mcp__twice']);
    expect(found[0]!.tools.filter((tool) => tool.name === 'get_weather')).toHaveLength(1);
  });
});
