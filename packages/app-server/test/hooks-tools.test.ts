// Tool hooks beyond the shell, end to end against real hook scripts: a PreToolUse hook that
// rewrites a command (the rewritten one runs, checked on disk) or answers what Codex refuses (the
// command runs unchanged); MCP tools under Codex's `mcp__<server>__<tool>` names, blocked before
// the server is called or told the server's answer after; and PermissionRequest answering a patch.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, mcpFixtureServerToml, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { configureHooks, hookInputs, hookRuns, runTurn } from './support/hook-scenario.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

describe('tool hooks', () => {
  it('runs the command a PreToolUse hook rewrote, and the model asked for, unchanged, when a hook answers what Codex refuses', async () => {
    const { home, model } = scenario();
    const allowWith = (command: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command } } });
    const refused = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    const { log } = configureHooks(scenario(), [
      { event: 'preToolUse', matcher: 'Bash', script: `case "$input" in *original*) echo '${allowWith('touch rewritten.txt')}';; *second*) echo '${refused}';; esac`, trusted: true },
      { event: 'postToolUse', matcher: 'Bash', script: 'exit 0', trusted: true },
    ]);
    model.expect([
      sse(functionCall('exec_command', { cmd: 'touch original.txt' }, { callId: 'call_one' }), completed()),
      sse(functionCall('exec_command', { cmd: 'touch second.txt' }, { callId: 'call_two' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, threadId, 'Make files.');

    expect(existsSync(path.join(home.workspace, 'original.txt'))).toBe(false);
    expect(existsSync(path.join(home.workspace, 'rewritten.txt'))).toBe(true);
    expect(existsSync(path.join(home.workspace, 'second.txt'))).toBe(true);
    // PostToolUse is told the input that ran.
    const posts = hookInputs(log).filter((input) => input.hook_event_name === 'PostToolUse');
    expect(posts.map((input) => input.tool_input)).toEqual([{ command: 'touch rewritten.txt' }, { command: 'touch second.txt' }]);
    // The client sees the command that ran, and the refused answer as a failed run that says why.
    const commands = client.notifications.filter((note) => note.method === 'item/completed' && (note.params as { item: { type: string } }).item.type === 'commandExecution').map((note) => (note.params as { item: { command: string } }).item.command);
    expect(commands.join('\n')).toContain('touch rewritten.txt');
    expect(commands.join('\n')).not.toContain('original.txt');
    const preRuns = client.notifications.filter((note) => note.method === 'hook/completed' && (note.params as { run: { eventName: string } }).run.eventName === 'preToolUse').map((note) => (note.params as { run: { status: string; entries: unknown[] } }).run);
    expect(preRuns.map((run) => [run.status, run.entries])).toEqual([
      ['completed', []],
      ['failed', [{ kind: 'error', text: 'PreToolUse hook returned unsupported permissionDecision:allow' }]],
    ]);
  });

  it('names MCP tools mcp__<server>__<tool>: a blocked call never reaches the server, an allowed one tells PostToolUse its result', async () => {
    const { model } = scenario();
    const { log } = configureHooks(
      scenario(),
      [
        { event: 'preToolUse', matcher: 'mcp__fixture__echo', script: 'echo "echo is off limits" >&2; exit 2', trusted: true },
        { event: 'postToolUse', matcher: 'mcp__.*', script: 'exit 0', trusted: true },
      ],
      { after: `\n${mcpFixtureServerToml('fixture')}` },
    );
    model.expect([
      sse(functionCall('echo', { text: 'hi' }, { namespace: 'mcp__fixture', callId: 'call_echo' }), completed()),
      sse(functionCall('get_weather', { city: 'Paris' }, { namespace: 'mcp__fixture', callId: 'call_weather' }), completed()),
      sse(assistantMessage('Sunny.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    await runTurn(client, threadId, 'Weather?');

    expect(model.requests[1]!.toolOutputText('call_echo')).toBe('Tool call blocked by PreToolUse hook: echo is off limits. Tool: mcp__fixture__echo');
    // The blocked call never reached the server: only the allowed one became an MCP call.
    const mcpCalls = client.notifications.filter((note) => note.method === 'item/started' && (note.params as { item: { type: string } }).item.type === 'mcpToolCall').map((note) => (note.params as { item: { tool: string } }).item.tool);
    expect(mcpCalls).toEqual(['get_weather']);
    const seen = hookInputs(log);
    expect(seen.map((input) => [input.hook_event_name, input.tool_name])).toEqual([
      ['PreToolUse', 'mcp__fixture__echo'],
      ['PostToolUse', 'mcp__fixture__get_weather'],
    ]);
    expect(seen[1]).toMatchObject({ tool_input: { city: 'Paris' }, tool_use_id: 'call_weather', tool_response: { content: [{ type: 'text', text: expect.stringContaining('Paris') as string }] } });
    expect(hookRuns(client, threadId).map(([method, event, status]) => `${method} ${event} ${status}`)).toEqual([
      'hook/started preToolUse running',
      'hook/completed preToolUse blocked',
      'hook/started postToolUse running',
      'hook/completed postToolUse completed',
    ]);
  });

  it("lets a PermissionRequest hook refuse a patch in the user's place: nothing is written and the model reads the hook's message", async () => {
    const { home, model } = scenario();
    const { log } = configureHooks(scenario(), [
      { event: 'permissionRequest', matcher: 'apply_patch', script: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no patches today"}}}'`, trusted: true },
    ]);
    const patch = '*** Begin Patch\n*** Add File: made.txt\n+hello\n*** End Patch\n';
    model.expect([sse(customToolCall('apply_patch', patch, { callId: 'call_patch' }), completed()), sse(assistantMessage('Refused.'), completed())]);
    const client = await scenario().connect();
    // Read-only: the patch needs the user's approval, which the hook gives in their place.
    const threadId = await scenario().startThread(client, { approvalPolicy: 'on-request', sandbox: 'read-only' });
    await runTurn(client, threadId, 'Make a file.');

    expect(client.serverRequests).toEqual([]);
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(false);
    expect(model.requests[1]!.toolOutputText('call_patch')).toContain('no patches today');
    expect(hookInputs(log)).toEqual([expect.objectContaining({ hook_event_name: 'PermissionRequest', tool_name: 'apply_patch', tool_input: { command: patch.trimEnd() } })]);
  });

  it("runs MCP tool hooks on the thread's server: the tool's text is the hook's answer, an error answer a failed run", async () => {
    const { home, model } = scenario();
    const context = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'MCP-CTX' } };
    configureHooks(
      scenario(),
      [
        // The fixture's echo answers its arguments as JSON text: here, a hook's answer.
        { event: 'userPromptSubmit', mcp: { server: 'fixture', tool: 'echo', input: context }, trusted: true },
        { event: 'preToolUse', matcher: 'Bash', mcp: { server: 'fixture', tool: 'fail', input: {} }, trusted: true },
      ],
      { after: `\n${mcpFixtureServerToml('fixture')}` },
    );
    model.expect([sse(functionCall('exec_command', { cmd: 'touch ran.txt' }, { callId: 'call_touch' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, threadId, 'Touch it.');

    const items = model.requests[0]!.inputItems();
    const promptAt = items.findIndex((item) => JSON.stringify(item).includes('Touch it.'));
    expect(items[promptAt + 1]).toMatchObject({ role: 'developer', content: [{ text: 'MCP-CTX' }] });
    // The failing hook blocks nothing: the command ran.
    expect(existsSync(path.join(home.workspace, 'ran.txt'))).toBe(true);
    const runs = client.notifications.filter((note) => note.method === 'hook/completed').map((note) => (note.params as { run: { eventName: string; handlerType: string; status: string; entries: { text: string }[] } }).run);
    expect(runs.map((run) => [run.eventName, run.handlerType, run.status])).toEqual([
      ['userPromptSubmit', 'mcpTool', 'completed'],
      ['preToolUse', 'mcpTool', 'failed'],
    ]);
    expect(runs[1]!.entries[0]!.text).toContain('the fixture failed on purpose');
    const listed = (await client.request('hooks/list', {})) as { data: { hooks: Record<string, unknown>[] }[] };
    expect(listed.data[0]!.hooks.map((hook) => [hook.handlerType, hook.server, hook.tool, hook.trustStatus])).toEqual([
      ['mcpTool', 'fixture', 'fail', 'trusted'],
      ['mcpTool', 'fixture', 'echo', 'trusted'],
    ]);
  });

  it("runs tool hooks on a code-mode cell's calls, not on the cell: a blocked nested command never runs, the cell reads why", async () => {
    const { home, model } = scenario();
    const { log } = configureHooks(scenario(), [{ event: 'preToolUse', script: `case "$input" in *'"rm '*) echo "no rm in cells" >&2; exit 2;; esac`, trusted: true }]);
    writeFileSync(path.join(home.workspace, 'victim.txt'), 'keep me\n');
    const cell = 'const a = await tools.exec_command({ cmd: "echo fine" });\ntext(a.output);\ntry { await tools.exec_command({ cmd: "rm -f victim.txt" }); } catch (error) { text(String(error.message ?? error)); }';
    model.expect([sse(customToolCall('exec', cell, { callId: 'call_cell' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-6.2-sol', sandbox: 'danger-full-access' });
    await runTurn(client, threadId, 'Run a cell.');

    expect(readFileSync(path.join(home.workspace, 'victim.txt'), 'utf8')).toBe('keep me\n');
    const seen = hookInputs(log);
    // The cell itself fires nothing; each command it runs does, as Bash.
    expect(seen.map((input) => [input.hook_event_name, input.tool_name, input.tool_input])).toEqual([
      ['PreToolUse', 'Bash', { command: 'echo fine' }],
      ['PreToolUse', 'Bash', { command: 'rm -f victim.txt' }],
    ]);
    const answer = JSON.stringify(model.requests[1]!.body!.input.at(-1));
    expect(answer).toContain('fine');
    expect(answer).toContain('Command blocked by PreToolUse hook: no rm in cells. Command: rm -f victim.txt');
  });
});
