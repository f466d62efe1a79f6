// Code mode (Codex's default models): the request offers `additional_tools` instead of `tools`, the
// model's `exec` cells run in the code-mode host and call the thread's real tools, and the answers
// take Codex's form — a completed cell with a nested command, a yield picked up by `wait`, a failure,
// a refused pragma, a patch, and an interrupt that ends the cell.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, MCP_FIXTURE_SERVER, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestWorkspace, startTestThread } from '../src/testing/index.js';
import { say, toolThreadFixture, withoutDescriptions, type ToolThreadFixture } from './support/tool-thread.js';

const RECORDED = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-additional-tools.gpt-6.2-sol.json'), 'utf8')) as { tools: unknown[]; allTools: string };
const CODE_MODE = ['model="gpt-6.2-sol"'];
const TOP_LEVEL = 'top_level_tools';

let server: MockResponsesServer;
let fixture: ToolThreadFixture;

beforeEach(async () => {
  server = await startMockResponsesServer();
  fixture = toolThreadFixture(server);
});
afterEach(async () => {
  await fixture.cleanup();
  await server.close();
});


type Item = Record<string, unknown> & { type: string; call_id?: string };
const outputOf = (request: CapturedRequest, callId: string) => (request.body!.input as unknown as Item[]).find((item) => item.call_id === callId && item.type.endsWith('_output'))?.['output'];
const texts = (output: unknown) => (output as { text: string }[]).map((part) => part.text.replace(/Wall time \d+\.\d seconds/, 'Wall time <s> seconds'));

describe('code mode', () => {
  it('offers additional_tools as Codex does, and a cell runs a nested command through the router', async () => {
    const cell = 'const r = await tools.exec_command({ cmd: "echo hi" });\ntext(r.output);\ntext(String(r.exit_code));\ntext(ALL_TOOLS.map((t) => t.name).join(","));';
    server.expect([sse(customToolCall('exec', cell, { callId: 'call_cell' }), completed()), sse(assistantMessage('It printed hi.'), completed())]);
    const { thread, events } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('run echo hi'));

    const [first, second] = server.requests;
    expect(first!.body).not.toHaveProperty('tools');
    expect(first!.body).toMatchObject({ parallel_tool_calls: false, reasoning: { effort: 'low', context: 'all_turns' } });
    expect(first!.header('x-openai-internal-codex-responses-lite')).toBe('true');
    const offered = (first!.body!.input as unknown as Item[])[0]!;
    expect(offered).toMatchObject({ type: 'additional_tools', role: 'developer', id: expect.stringMatching(/^at_/) as string });
    expect(withoutDescriptions(offered['tools'])).toEqual(withoutDescriptions(RECORDED.tools));

    expect(texts(outputOf(second!, 'call_cell'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'hi\n', '0', RECORDED.allTools]);
    // The nested command is an item of its own for the client, as a direct one is.
    const started = events.filter((event) => event.type === 'itemStarted').map((event) => (event as { item: { type: string; name?: string } }).item).filter((item) => item.type !== 'message');
    expect(started.map((item) => [item.type, item.name])).toEqual([['custom_tool_call', 'exec'], ['function_call', 'exec_command']]);
  });

  it('answers Script running with the cell ID after the yield time, and wait returns the rest', async () => {
    const cell = '// @exec: {"yield_time_ms": 200}\ntext("a");\nawait tools.exec_command({ cmd: "sleep 1" });\ntext("b");';
    server.expect([
      sse(customToolCall('exec', cell, { callId: 'call_cell' }), completed()),
      sse(functionCall('wait', { cell_id: '1', yield_time_ms: 20_000 }, { callId: 'call_wait' }), completed()),
      sse(functionCall('wait', { cell_id: '1' }, { callId: 'call_again' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('wait for it'));
    expect(texts(outputOf(server.requests[1]!, 'call_cell'))).toEqual(['Script running with cell ID 1\nWall time <s> seconds\nOutput:\n', 'a']);
    expect(texts(outputOf(server.requests[2]!, 'call_wait'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'b']);
    // A finished cell is gone.
    expect(texts(outputOf(server.requests[3]!, 'call_again'))).toEqual(['Script failed\nWall time <s> seconds\nOutput:\n', 'Script error:\nexec cell 1 not found']);
  });

  it('answers a failing cell with its error and position, a bad pragma with why, and keeps the turn going', async () => {
    server.expect([
      sse(customToolCall('exec', 'text("before");\nnull.x;', { callId: 'call_fail' }), completed()),
      sse(customToolCall('exec', '// @exec: {bad json}\ntext(1)', { callId: 'call_pragma' }), completed()),
      sse(customToolCall('exec', 'await tools.no_such_tool({});', { callId: 'call_unknown' }), completed()),
      sse(assistantMessage('Noted.'), completed()),
    ]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    const outcome = await thread.runTurn(say('try things'));
    expect(outcome.status).toBe('completed');
    const last = server.requests[3]!;
    const failed = texts(outputOf(last, 'call_fail'));
    expect(failed.slice(0, 2)).toEqual(['Script failed\nWall time <s> seconds\nOutput:\n', 'before']);
    expect(failed[2]).toMatch(/^Script error:\nTypeError: .*\n\s+at exec_main\.mjs:2:/);
    expect(outputOf(last, 'call_pragma')).toMatch(/^exec pragma must be valid JSON with supported fields `yield_time_ms` and `max_output_tokens`/);
    expect(texts(outputOf(last, 'call_unknown'))[1]).toMatch(/^Script error:\nTypeError: /);
  });

  it('applies a patch from a cell: apply_patch resolves to {} and the file is written', async () => {
    const patch = '*** Begin Patch\\n*** Add File: hello.txt\\n+Hello from a cell\\n*** End Patch\\n';
    server.expect([sse(customToolCall('exec', `text(JSON.stringify(await tools.apply_patch("${patch}")));`, { callId: 'call_patch' }), completed()), sse(assistantMessage('Written.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('write hello'));
    expect(texts(outputOf(server.requests[1]!, 'call_patch'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', '{}']);
    expect(readFileSync(path.join(fixture.cwd, 'hello.txt'), 'utf8')).toBe('Hello from a cell\n');
  });

  it("gives the model a cell's notify() as another output of the exec call, after its answer", async () => {
    server.expect([sse(customToolCall('exec', 'notify("halfway"); text("done");', { callId: 'call_note' }), completed()), sse(assistantMessage('Noted.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('note it'));
    const tail = (server.requests[1]!.body!.input as unknown as Item[]).slice(-3);
    expect(tail.map((item) => [item.type, item.call_id, item['name'] ?? null])).toEqual([['custom_tool_call', 'call_note', 'exec'], ['custom_tool_call_output', 'call_note', null], ['custom_tool_call_output', 'call_note', 'exec']]);
    expect(tail[2]!['output']).toBe('halfway');
  });

  it('shows the _async tools\' message and questions to the client at once, tells the model they were accepted, and refuses empty ones', async () => {
    server.expect([
      sse(functionCall('send_message_to_user_async', { message: 'Halfway there.' }, { callId: 'call_say' }), completed()),
      sse(functionCall('request_user_input_async', { questions: [{ title: 'Pick a color', options: ['red', 'blue'] }, { title: 'Anything else?' }] }, { callId: 'call_ask' }), completed()),
      sse(functionCall('request_user_input_async', { questions: [] }, { callId: 'call_none' }), completed()),
      sse(functionCall('request_user_input_async', { questions: [{ title: 'T', options: [' '] }] }, { callId: 'call_blank' }), completed()),
      sse(functionCall('send_message_to_user_async', { message: ' ' }, { callId: 'call_empty' }), completed()),
      sse(functionCall('send_message_to_user_async', {}, { callId: 'call_missing' }), completed()),
      sse(assistantMessage('Carrying on.'), completed()),
    ]);
    const { thread, events } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('go'));
    const last = server.requests.at(-1)!;
    expect([outputOf(last, 'call_say'), outputOf(last, 'call_ask')]).toEqual(['{"accepted":true}', '{"accepted":true}']);
    expect(outputOf(last, 'call_none')).toBe('questions must not be empty');
    expect(outputOf(last, 'call_blank')).toBe('options must contain at least one non-empty answer');
    expect(outputOf(last, 'call_empty')).toBe('message must not be empty');
    expect(outputOf(last, 'call_missing')).toMatch(/^failed to parse function arguments: /);
    const shown = events.flatMap((event) => (event.type === 'turnItem' && event.item.kind === 'agentMessage' && event.item.delivery === 'async' ? [[event.phase, event.item]] : []));
    expect(shown).toEqual([
      ['started', expect.objectContaining({ id: 'call_say', text: 'Halfway there.', phase: 'final_answer', completedAtMs: null }) as unknown],
      ['completed', expect.objectContaining({ id: 'call_say', text: 'Halfway there.', phase: 'final_answer' }) as unknown],
      ['started', expect.objectContaining({ id: 'call_ask' }) as unknown],
      ['completed', expect.objectContaining({ id: 'call_ask', text: 'Pick a color\n- red\n- blue\n\nAnything else?', questions: [{ title: 'Pick a color', options: ['red', 'blue'] }, { title: 'Anything else?', options: null }] }) as unknown],
    ]);
  });

  it('follows [code_mode]: the default yield, a namespace kept from cells, one offered directly, long schemas left untyped', async () => {
    const mcpServer = (name: string) => `mcp_servers.${name}={command=${JSON.stringify(process.execPath)}, args=[${JSON.stringify(MCP_FIXTURE_SERVER)}, "tools"]}`;
    const overrides = [
      ...CODE_MODE,
      'code_mode.default_exec_yield_time_ms=200',
      'code_mode.excluded_tool_namespaces=["mcp__hidden"]',
      'code_mode.direct_only_tool_namespaces=["mcp__direct"]',
      'code_mode.tool_input_schema_max_bytes=400',
      mcpServer('direct'),
      mcpServer('hidden'),
      mcpServer('nested'),
    ];
    const { thread, events } = await fixture.openThread('"never"', undefined, { overrides });
    await vi.waitFor(() => expect(events.filter((event) => event.type === 'mcpServerStatus' && event.status === 'ready')).toHaveLength(3), { timeout: 20_000 });
    server.expect([
      sse(customToolCall('exec', 'await new Promise((resolve) => setTimeout(resolve, 1000));\ntext(ALL_TOOLS.map((t) => t.name).join(","));\ntext(await tools.mcp__nested__get_weather({ city: "Oslo" }));', { callId: 'call_cell' }), completed()),
      sse(functionCall('wait', { cell_id: '1' }, { callId: 'call_wait' }), completed()),
      sse(functionCall('get_weather', { city: 'Paris' }, { namespace: 'mcp__direct', callId: 'call_direct' }), completed()),
      sse(functionCall('get_weather', { city: 'Rome' }, { namespace: 'mcp__hidden', callId: 'call_hidden' }), completed()),
      sse(assistantMessage('Sunny.'), completed()),
    ]);
    await thread.runTurn(say('go'));
    const [first, , , , last] = server.requests;
    const offered = (first!.body!.input as unknown as Item[])[0]!['tools'] as { name: string; tools: { name: string; description: string }[] }[];
    expect(offered.map((namespace) => namespace.name)).toEqual(['functions', 'clock', 'collaboration', 'mcp__direct']);
    const execDescription = offered[0]!.tools.find((tool) => tool.name === 'exec')!.description;
    expect(execDescription).toContain('"yield_time_ms": 200');
    // exec_command's schema is longer than 400 bytes; view_image's is not.
    expect(execDescription).toContain('exec_command(args: object)');
    expect(execDescription).toContain('view_image(args: { path: string;');
    // Nothing printed yet: the header alone, as a string.
    expect(outputOf(server.requests[1]!, 'call_cell')).toMatch(/^Script running with cell ID 1\n/);
    const waited = texts(outputOf(server.requests[2]!, 'call_wait'));
    const cellTools = waited[1]!.split(',');
    expect(cellTools).toContain('exec_command');
    // Only the server that is neither kept from cells nor offered directly.
    expect(new Set(cellTools.filter((name) => name.startsWith('mcp__')).map((name) => name.split('__')[1]))).toEqual(new Set(['nested']));
    expect(cellTools).toContain('mcp__nested__get_weather');
    // A cell's MCP call is the server's call, with the client item a direct one has.
    expect(waited[2]).toContain('Oslo');
    expect(events.flatMap((event) => (event.type === 'turnItem' && event.item.kind === 'mcpToolCall' ? [[event.phase, event.item.server, event.item.tool]] : []))).toEqual([
      ['started', 'nested', 'get_weather'],
      ['completed', 'nested', 'get_weather'],
      ['started', 'direct', 'get_weather'],
      ['completed', 'direct', 'get_weather'],
    ]);
    expect(JSON.stringify(outputOf(last!, 'call_direct'))).toContain('Paris');
    // A namespace kept from code mode cannot be called by name either.
    expect(JSON.stringify(outputOf(last!, 'call_hidden'))).not.toContain('Rome');
  });

  it('records what it offers once in the rollout, ahead of the context, with a top_level_tools world state; a resumed thread offers it afresh', async () => {
    const workspace = createTestWorkspace();
    fixture.defer(() => workspace.close());
    server.expect([sse(assistantMessage('one'), completed()), sse(assistantMessage('two'), completed()), sse(assistantMessage('three'), completed())]);
    const opened = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', ...CODE_MODE] });
    await opened.thread.runTurn(say('one'));
    await opened.thread.runTurn(say('two'));
    await opened.thread.close();

    const sessions = path.join(workspace.home, 'sessions');
    const file = readdirSync(sessions, { recursive: true }).map(String).find((name) => name.endsWith('.jsonl'))!;
    const lines = readFileSync(path.join(sessions, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    const responseItems = lines.filter((line) => line.type === 'response_item').map((line) => line.payload);
    expect(responseItems.filter((item) => item['type'] === 'additional_tools')).toHaveLength(1);
    expect(responseItems[0]).toEqual((server.requests[0]!.body!.input as unknown as Item[])[0]);
    const worldStates = lines.filter((line) => line.type === 'world_state' && TOP_LEVEL in (line.payload['state'] as object)).map((line) => (line.payload['state'] as Record<string, Record<string, string>>)[TOP_LEVEL]!);
    expect(worldStates).toHaveLength(1);
    expect(Object.keys(worldStates[0]!)).toEqual(expect.arrayContaining(['functions', 'functions.exec', 'functions.wait', 'clock', 'clock.sleep']));
    expect(Object.values(worldStates[0]!).every((hash) => /^[0-9a-f]{40}$/.test(hash))).toBe(true);

    const resumed = await (await opened.newManager()).resume(opened.thread.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('three'));
    await resumed.close();
    const input = server.requests[2]!.body!.input as unknown as Item[];
    expect(input.filter((item) => item.type === 'additional_tools')).toHaveLength(1);
    expect(input[0]!.type).toBe('additional_tools');
  });

  it("keeps a yielded cell running after its turn, as Codex does; its nested calls wait for a wait in a running turn, and run under that turn", async () => {
    const cell = '// @exec: {"yield_time_ms": 200}\ntext("a");\nawait new Promise((resolve) => setTimeout(resolve, 300));\nconst r = await tools.exec_command({ cmd: "touch late.txt && echo late" });\ntext(r.output);';
    server.expect([
      sse(customToolCall('exec', cell, { callId: 'call_cell' }), completed()),
      sse(assistantMessage('Yielded.'), completed()),
      sse(functionCall('wait', { cell_id: '1', yield_time_ms: 20_000 }, { callId: 'call_wait' }), completed()),
      sse(assistantMessage('Waited.'), completed()),
    ]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('start it'));
    expect(texts(outputOf(server.requests[1]!, 'call_cell'))).toEqual(['Script running with cell ID 1\nWall time <s> seconds\nOutput:\n', 'a']);
    // Between turns the cell's command waits: nothing runs under a finished turn.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(path.join(fixture.cwd, 'late.txt'))).toBe(false);
    await thread.runTurn(say('and now?'));
    expect(texts(outputOf(server.requests[3]!, 'call_wait'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'late\n']);
    expect(existsSync(path.join(fixture.cwd, 'late.txt'))).toBe(true);
  });

  it('refuses a ninth running cell, naming the eight still running, and runs one again once a cell ends', async () => {
    const sleeper = '// @exec: {"yield_time_ms": 10}\nawait new Promise((resolve) => setTimeout(resolve, 60000));';
    server.expect([
      ...Array.from({ length: 9 }, (_, n) => sse(customToolCall('exec', sleeper, { callId: `call_cell_${n + 1}` }), completed())),
      sse(functionCall('wait', { cell_id: '3', terminate: true }, { callId: 'call_end' }), completed()),
      sse(customToolCall('exec', 'text("room again");', { callId: 'call_after' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    await thread.runTurn(say('start many'));

    // A cell that printed nothing yet is answered with the header alone, as a string.
    expect(outputOf(server.requests[8]!, 'call_cell_8')).toMatch(/^Script running with cell ID 8\n/);
    expect(outputOf(server.requests[9]!, 'call_cell_9')).toBe('8 cells are still running (1, 2, 3, 4, 5, 6, 7, 8), the most one thread may have: end one with wait {cell_id, terminate: true}, or wait for one to finish, before starting another');
    expect(texts(outputOf(server.requests[11]!, 'call_after'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'room again']);
  });

  it('an interrupt ends the running cell: a later wait does not find it', async () => {
    server.expect([
      sse(customToolCall('exec', 'text("started"); await new Promise(() => {});', { callId: 'call_hang' }), completed()),
    ]);
    const { thread } = await fixture.openThread('"never"', undefined, { overrides: CODE_MODE });
    const turn = thread.runTurn(say('hang'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    thread.interrupt();
    expect((await turn).status).toBe('interrupted');
    server.expect([sse(functionCall('wait', { cell_id: '1' }, { callId: 'call_wait' }), completed()), sse(assistantMessage('Gone.'), completed())]);
    await thread.runTurn(say('is it there?'));
    expect(texts(outputOf(server.requests.at(-1)!, 'call_wait'))[1]).toBe('Script error:\nexec cell 1 not found');
  });
});
