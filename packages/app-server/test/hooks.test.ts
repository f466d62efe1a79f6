// Lifecycle hooks end to end, against real hook scripts: what each hook read on stdin, what the
// model then received, what the client was told (hook/started, hook/completed, hookPrompt items),
// and that a blocked command never ran (its file is still on disk) and an untrusted hook never ran.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hookHash } from '@skein/hooks';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { configureHooks as configureHookScripts, hookInputs, runTurn, type HookSpec } from './support/hook-scenario.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

const configureHooks = (hooks: readonly HookSpec[]) => configureHookScripts(scenario(), hooks);
const inputs = hookInputs;

describe('lifecycle hooks', () => {
  it('blocks a command with a PreToolUse hook, adds UserPromptSubmit context, and never runs an untrusted hook', async () => {
    const { home, model } = scenario();
    const victim = path.join(home.workspace, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    const untrustedMarker = path.join(home.home, 'untrusted-ran');
    const { log, configFile } = configureHooks([
      { event: 'preToolUse', matcher: 'Bash', script: `case "$input" in *'"rm '*) echo "no rm here" >&2; exit 2;; esac`, trusted: true },
      { event: 'userPromptSubmit', script: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CTX-FROM-HOOK"}}'`, trusted: true },
      // SessionStart fires on this turn: only its missing trust keeps it from running.
      { event: 'sessionStart', script: `touch ${untrustedMarker}`, trusted: false },
    ]);
    model.expect([sse(functionCall('exec_command', { cmd: 'rm -f victim.txt' }, { callId: 'call_rm' }), completed()), sse(assistantMessage('I could not.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnId = await runTurn(client, threadId, 'Remove the victim.');

    // The command never ran; the untrusted hook never ran either.
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(existsSync(untrustedMarker)).toBe(false);
    // What each trusted hook read.
    const [prompt, pre] = inputs(log);
    const transcript = (await client.request('thread/read', { threadId })) as { thread: { path: string } };
    expect(prompt).toEqual({ session_id: threadId, turn_id: turnId, transcript_path: transcript.thread.path, cwd: home.workspace, hook_event_name: 'UserPromptSubmit', model: 'gpt-5.5', permission_mode: 'bypassPermissions', prompt: 'Remove the victim.' });
    expect(pre).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -f victim.txt' }, tool_use_id: 'call_rm' });
    // What the model received: the context right after the prompt, the block as the call's output.
    const [first, second] = model.requests;
    const texts = first!.inputItems().map((item) => JSON.stringify(item));
    const promptAt = texts.findIndex((text) => text.includes('Remove the victim.'));
    expect(first!.inputItems()[promptAt + 1]).toMatchObject({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'CTX-FROM-HOOK' }] });
    expect(second!.toolOutputText('call_rm')).toBe('Command blocked by PreToolUse hook: no rm here. Command: rm -f victim.txt');
    // What the client was told: each run started and completed, no command item for the blocked call.
    const runs = client.notifications.filter((note) => note.method === 'hook/started' || note.method === 'hook/completed').map((note) => [note.method, (note.params as { run: { eventName: string; status: string } }).run.eventName, (note.params as { run: { status: string } }).run.status]);
    expect(runs).toEqual([
      ['hook/started', 'userPromptSubmit', 'running'],
      ['hook/completed', 'userPromptSubmit', 'completed'],
      ['hook/started', 'preToolUse', 'running'],
      ['hook/completed', 'preToolUse', 'blocked'],
    ]);
    const blocked = client.notifications.find((note) => note.method === 'hook/completed' && (note.params as { run: { status: string } }).run.status === 'blocked')!.params;
    expect(blocked).toMatchObject({ threadId, turnId, run: { id: `pre-tool-use:0:${configFile}:call_rm`, source: 'user', sourcePath: configFile, executionMode: 'sync', scope: 'turn', entries: [{ kind: 'feedback', text: 'no rm here' }] } });
    expect(client.notifications.some((note) => note.method === 'item/started' && (note.params as { item: { type: string } }).item.type === 'commandExecution')).toBe(false);
    // hooks/list shows both, trusted and not.
    const listed = (await client.request('hooks/list', {})) as { data: { hooks: { eventName: string; trustStatus: string }[] }[] };
    expect(listed.data[0]!.hooks.map((hook) => [hook.eventName, hook.trustStatus])).toEqual([
      ['preToolUse', 'trusted'],
      ['sessionStart', 'untrusted'],
      ['userPromptSubmit', 'trusted'],
    ]);
  });

  it("never runs a trusted project's hook that trusts itself: only the user's own config can trust it", async () => {
    const { home, model } = scenario();
    const marker = path.join(home.home, 'project-hook-ran');
    const codexDir = path.join(home.workspace, '.codex');
    mkdirSync(codexDir);
    const command = `touch ${marker}`;
    writeFileSync(path.join(codexDir, 'hooks.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }));
    // The project claims trust for its own hook, with the right key and hash.
    const key = `${path.join(codexDir, 'hooks.json')}:user_prompt_submit:0:0`;
    const hash = hookHash({ event: 'userPromptSubmit', matcher: null, handler: { type: 'command', command, async: false }, timeoutSec: 600, statusMessage: null });
    writeFileSync(path.join(codexDir, 'config.toml'), `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`);
    scenario().configure({ after: `\n[projects."${home.workspace}"]\ntrust_level = "trusted"\n` });
    model.expect([sse(assistantMessage('Hello.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    await runTurn(client, threadId, 'Hi.');

    expect(existsSync(marker)).toBe(false);
    expect(client.notifications.some((note) => note.method === 'hook/started')).toBe(false);
    const listed = (await client.request('hooks/list', { threadId })) as { data: { hooks: { key: string; source: string; currentHash: string; trustStatus: string }[] }[] };
    expect(listed.data[0]!.hooks).toEqual([expect.objectContaining({ key, source: 'project', currentHash: hash, trustStatus: 'untrusted' })]);
  });

  it('keeps a prompt a UserPromptSubmit hook blocks from the model: no request, no user message, the turn completes', async () => {
    const { model } = scenario();
    configureHooks([{ event: 'userPromptSubmit', script: `echo "secret detected" >&2; exit 2`, trusted: true }]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    const turnId = await runTurn(client, threadId, 'my password is hunter2');
    expect(model.requests).toHaveLength(0);
    const completedTurn = client.notifications.find((note) => note.method === 'turn/completed')!.params as { turn: { id: string; status: string } };
    expect(completedTurn.turn).toMatchObject({ id: turnId, status: 'completed' });
    const ofTurn = client.notifications.filter((note) => (note.params as { turnId?: string }).turnId === turnId);
    expect(ofTurn.some((note) => note.method === 'item/started' && (note.params as { item: { type: string } }).item.type === 'userMessage')).toBe(false);
    expect(ofTurn.find((note) => note.method === 'hook/completed')!.params).toMatchObject({ run: { status: 'blocked', entries: [{ kind: 'feedback', text: 'secret detected' }] } });
    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { preview: string; turns: { items: unknown[] }[] } };
    expect(JSON.stringify(read.thread)).not.toContain('hunter2');
  });

  it('runs UserPromptSubmit on input steered into a running turn: a blocked message never reaches the model, context follows the one it is about', async () => {
    const { model } = scenario();
    const { log } = configureHooks([
      { event: 'userPromptSubmit', script: `case "$input" in *secret*) echo "no secrets" >&2; exit 2;; *also*) echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"STEER-CTX"}}';; esac`, trusted: true },
    ]);
    model.expect([sse(functionCall('exec_command', { cmd: 'sleep 1', yield_time_ms: 5000 }, { callId: 'call_sleep' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Wait a second.', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    for (const text of ['also check the logs', 'my secret is hunter2']) await client.request('turn/steer', { threadId, expectedTurnId: turn.id, input: [{ type: 'text', text, text_elements: [] }] });
    await client.waitFor('turn/completed', () => true);

    expect(inputs(log).map((input) => [input.prompt, input.turn_id])).toEqual([
      ['Wait a second.', turn.id],
      ['also check the logs', turn.id],
      ['my secret is hunter2', turn.id],
    ]);
    const second = model.requests[1]!;
    expect(JSON.stringify(second.body)).not.toContain('hunter2');
    const items = second.inputItems();
    const steeredAt = items.findIndex((item) => JSON.stringify(item).includes('also check the logs'));
    expect(items[steeredAt + 1]).toMatchObject({ role: 'developer', content: [{ text: 'STEER-CTX' }] });
  });

  it('records nothing of a prompt whose UserPromptSubmit hook was interrupted, and stops the hook', async () => {
    const { home, model } = scenario();
    const finished = path.join(home.home, 'scan-finished');
    // A slow secret scan, for the prompt with the secret only.
    configureHooks([{ event: 'userPromptSubmit', script: `case "$input" in *hunter2*) sleep 5; touch ${finished};; esac`, trusted: true }]);
    model.expect([sse(assistantMessage('Hello.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'my password is hunter2', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('hook/started', () => true);
    await client.request('turn/interrupt', { threadId, turnId: turn.id });
    const ended = (await client.waitFor('turn/completed', () => true)) as { turn: { status: string } };
    expect(ended.turn.status).toBe('interrupted');
    expect(existsSync(finished)).toBe(false);
    await runTurn(client, threadId, 'Hi.');
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]!.body)).not.toContain('hunter2');
  });

  it('sends a turn on with a Stop hook prompt, shows it as a hookPrompt item that thread/read keeps, and adds SessionStart and PostToolUse context', async () => {
    const { home, model } = scenario();
    const once = path.join(home.home, 'stopped-once');
    const { log } = configureHooks([
      { event: 'sessionStart', script: `echo 'SESSION-CTX'`, trusted: true },
      { event: 'postToolUse', matcher: 'Bash', script: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"POST-CTX"}}'`, trusted: true },
      { event: 'stop', script: `if [ ! -e ${once} ]; then touch ${once}; echo "run the tests first" >&2; exit 2; fi`, trusted: true },
    ]);
    model.expect([
      sse(functionCall('exec_command', { cmd: 'echo listed' }, { callId: 'call_ls' }), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(assistantMessage('Tests pass.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnId = await runTurn(client, threadId, 'List.');

    const [first, second, third] = model.requests;
    const developer = first!.messageTexts('developer');
    expect(developer.at(-1)).toBe('SESSION-CTX');
    // The PostToolUse context sits just before the call's output.
    const items = second!.inputItems();
    const outputAt = items.findIndex((item) => item.type === 'function_call_output');
    expect(items[outputAt - 1]).toMatchObject({ role: 'developer', content: [{ text: 'POST-CTX' }] });
    expect(second!.toolOutputText('call_ls')).toContain('listed');
    // The Stop hook's reason, as the model reads it.
    const hookPrompt = third!.messageTexts('user').at(-1)!;
    expect(hookPrompt).toMatch(/^<hook_prompt hook_run_id="stop:\d+:[^"]+">run the tests first<\/hook_prompt>$/);
    const stops = inputs(log).filter((input) => input.hook_event_name === 'Stop');
    expect(stops.map((input) => [input.stop_hook_active, input.last_assistant_message])).toEqual([[false, 'Done.'], [true, 'Tests pass.']]);
    const sessionStart = inputs(log).find((input) => input.hook_event_name === 'SessionStart')!;
    expect(sessionStart).toMatchObject({ source: 'startup', session_id: threadId });
    expect(sessionStart).not.toHaveProperty('turn_id');
    // The client sees the prompt as a hookPrompt item, live and in thread/read.
    const live = client.notifications.find((note) => note.method === 'item/completed' && (note.params as { item: { type: string } }).item.type === 'hookPrompt')!.params as { item: { fragments: unknown } };
    const hookRunId: unknown = expect.stringMatching(/^stop:/);
    expect(live.item.fragments).toEqual([{ text: 'run the tests first', hookRunId }]);
    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { id: string; items: { type: string }[] }[] } };
    const turn = read.thread.turns.find((candidate) => candidate.id === turnId)!;
    expect(turn.items.map((item) => item.type)).toEqual(['userMessage', 'commandExecution', 'agentMessage', 'hookPrompt', 'agentMessage']);
  });

  it('runs PreCompact and PostCompact around a compaction the client asks for, with trigger manual', async () => {
    const { model } = scenario();
    const { log } = configureHooks([
      { event: 'preCompact', script: 'exit 0', trusted: true },
      { event: 'postCompact', script: 'exit 0', trusted: true },
    ]);
    model.expect([sse(assistantMessage('Hello.'), completed()), sse(assistantMessage('The summary.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    await runTurn(client, threadId, 'Hi.');
    await client.request('thread/compact/start', { threadId });
    await client.waitFor('hook/completed', (params) => (params as { run: { eventName: string } }).run.eventName === 'postCompact');
    const compactions = inputs(log).map((input) => [input.hook_event_name, input.trigger, 'permission_mode' in input]);
    expect(compactions).toEqual([
      ['PreCompact', 'manual', false],
      ['PostCompact', 'manual', false],
    ]);
    // PreCompact runs before the summary is asked for, PostCompact once the window changed.
    const methods = client.notifications.map((note) => (note.method.startsWith('hook/') ? `${note.method}:${(note.params as { run: { eventName: string } }).run.eventName}` : note.method));
    const started = methods.indexOf('hook/started:preCompact');
    expect(started).toBeGreaterThanOrEqual(0);
    expect(methods.indexOf('hook/completed:postCompact')).toBeGreaterThan(methods.indexOf('hook/completed:preCompact'));
  });

  it('tells PreModelRequest and PostModelRequest hooks of each sampling request, with its id, usage and response id', async () => {
    const { model } = scenario();
    const { log } = configureHooks([
      { event: 'preModelRequest', script: 'exit 0', trusted: true },
      { event: 'postModelRequest', script: 'exit 0', trusted: true },
    ]);
    model.expect([sse(functionCall('exec_command', { cmd: 'true' }, { callId: 'call_true' }), completed({ responseId: 'resp_one' })), sse(assistantMessage('Done.'), completed({ responseId: 'resp_two' }))]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnId = await runTurn(client, threadId, 'Run true.');
    const seen = inputs(log);
    expect(seen.map((input) => input.hook_event_name)).toEqual(['PreModelRequest', 'PostModelRequest', 'PreModelRequest', 'PostModelRequest']);
    const [pre, post] = seen;
    expect(pre).toMatchObject({ kind: 'sampling', attempt_number: 1, thread_id: threadId, turn_id: turnId, model: 'gpt-5.5' });
    expect(pre).not.toHaveProperty('permission_mode');
    expect(post).toMatchObject({ request_id: pre!.request_id, status: 'completed', error: null, response_id: 'resp_one', token_usage: { input_tokens: expect.any(Number) as number, total_tokens: expect.any(Number) as number } });
    expect(seen[2]!.request_id).not.toBe(pre!.request_id);
    const runIds = client.notifications.filter((note) => note.method === 'hook/completed').map((note) => (note.params as { run: { id: string } }).run.id);
    expect(runIds[0]).toMatch(new RegExp(`^pre-model-request:0:.*:${String(pre!.request_id)}$`));
  });

  it("lets a PermissionRequest hook answer an approval in the user's place: deny refuses it, allow runs it, and the client is never asked", async () => {
    const { home, model } = scenario();
    const denied = path.join(home.home, 'denied.txt');
    const allowed = path.join(home.home, 'allowed.txt');
    const { log } = configureHooks([
      {
        event: 'permissionRequest',
        script: `case "$input" in *denied.txt*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no writes"}}}';; *) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';; esac`,
        trusted: true,
      },
    ]);
    const escalated = (file: string, callId: string) => functionCall('exec_command', { cmd: `touch ${file}`, sandbox_permissions: 'require_escalated', justification: 'Write outside the workspace?' }, { callId });
    model.expect([sse(escalated(denied, 'call_denied'), completed()), sse(escalated(allowed, 'call_allowed'), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { approvalPolicy: 'on-request', sandbox: 'read-only' });
    await runTurn(client, threadId, 'Write two files.');

    expect(client.serverRequests).toEqual([]);
    expect(existsSync(denied)).toBe(false);
    expect(existsSync(allowed)).toBe(true);
    expect(model.requests[1]!.toolOutputText('call_denied')).toBe('exec_command failed: CreateProcess { message: "Rejected(\\"no writes\\")" }');
    const [first] = inputs(log);
    expect(first).toMatchObject({ hook_event_name: 'PermissionRequest', permission_mode: 'default', tool_name: 'Bash', tool_input: { command: `touch ${denied}`, description: 'Write outside the workspace?' } });
    const statuses = client.notifications.filter((note) => note.method === 'hook/completed').map((note) => (note.params as { run: { id: string; status: string } }).run);
    expect(statuses.map((run) => [run.id.split(':').at(-1), run.status])).toEqual([
      ['call_denied', 'blocked'],
      ['call_allowed', 'completed'],
    ]);
  });

  it("tells the client what Codex 0.171.0 tells it in the z1 hooks scenario, notification for notification", async () => {
    const { model } = scenario();
    const recorded = JSON.parse(readFileSync(new URL('./fixtures/z1-hooks-app-server.codex.json', import.meta.url), 'utf8')) as { notifications: unknown[] };
    configureHooks([
      { event: 'preToolUse', matcher: 'Bash', script: `case "$input" in *'"rm '*) echo "no rm here" >&2; exit 2;; esac`, trusted: true },
      { event: 'userPromptSubmit', script: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CTX-FROM-HOOK"}}'`, trusted: true },
    ]);
    model.expect([sse(functionCall('exec_command', { cmd: 'rm -f victim.txt' }, { callId: 'call_rm' }), completed()), sse(assistantMessage('I could not.'), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, threadId, 'Remove the victim.');

    const volatile = (value: unknown, key: string) => (value === null ? null : `<${key}>`);
    const seen = client.notifications
      // Left out of the recording too; text deltas because the recording's mock streamed none.
      .filter((note) => !['account/rateLimits/updated', 'thread/tokenUsage/updated', 'remoteControl/status/changed', 'item/agentMessage/delta'].includes(note.method))
      .map((note) => {
        const params = note.params as { item?: { type: string }; run?: Record<string, unknown> };
        if (params.run !== undefined) {
          const { run } = params;
          const sourcePath = String(run.sourcePath);
          return { method: note.method, run: { ...run, id: String(run.id).replace(sourcePath, '<sourcePath>'), sourcePath: '<sourcePath>', startedAt: volatile(run.startedAt, 'startedAt'), completedAt: volatile(run.completedAt, 'completedAt'), durationMs: volatile(run.durationMs, 'durationMs') } };
        }
        return params.item === undefined ? { method: note.method } : { method: note.method, itemType: params.item.type };
      });
    expect(seen).toEqual(recorded.notifications);
  });
});
