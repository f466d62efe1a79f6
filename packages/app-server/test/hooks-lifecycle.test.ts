// The lifecycle hooks around turns and threads, end to end against real hook scripts: Interrupt when
// the user interrupts (before the client hears the turn ended), SessionEnd as the server closes the
// thread, the compaction's own model request, and a sub-agent's SubagentStart (its context reaches
// the sub-agent's model) and SubagentStop (a block sends the sub-agent on with a hook prompt).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, routed, sse, type CapturedRequest } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { configureHooks, hookInputs, runTurn } from './support/hook-scenario.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

describe('lifecycle hooks around turns and threads', () => {
  it('runs Interrupt hooks when the user interrupts, before the turn is reported ended, and SessionEnd as the thread closes', async () => {
    const { home, model } = scenario();
    const { log } = configureHooks(scenario(), [
      { event: 'interrupt', script: `echo '{"systemMessage":"cleaned up"}'`, trusted: true },
      { event: 'sessionEnd', script: 'exit 0', trusted: true },
    ]);
    model.expect([sse(functionCall('exec_command', { cmd: 'sleep 30', yield_time_ms: 30000 }, { callId: 'call_sleep' }), completed())]);
    const server = await scenario().startServer();
    const client = await scenario().connectTo(server);
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Wait.', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    await client.request('turn/interrupt', { threadId, turnId: turn.id });
    await client.waitFor('turn/completed', () => true);

    const [interrupt] = hookInputs(log);
    expect(interrupt).toEqual({ session_id: threadId, turn_id: turn.id, transcript_path: expect.any(String) as string, cwd: home.workspace, hook_event_name: 'Interrupt', model: 'gpt-5.5', permission_mode: 'bypassPermissions' });
    const methods = client.notifications.map((note) => note.method);
    expect(methods.lastIndexOf('hook/completed')).toBeLessThan(methods.indexOf('turn/completed'));
    const run = client.notifications.find((note) => note.method === 'hook/completed')!.params as { turnId: string; run: { id: string; scope: string; entries: unknown[] } };
    expect(run).toMatchObject({ turnId: turn.id, run: { id: expect.stringMatching(/^interrupt:\d+:/) as string, scope: 'turn', entries: [{ kind: 'warning', text: 'cleaned up' }] } });

    // SessionEnd: once, as the server shuts the thread down; it is told no turn, model or permission mode.
    expect(hookInputs(log).some((input) => input.hook_event_name === 'SessionEnd')).toBe(false);
    await client.close();
    await server.close();
    expect(hookInputs(log).filter((input) => input.hook_event_name === 'SessionEnd')).toEqual([{ session_id: threadId, transcript_path: interrupt!.transcript_path, cwd: home.workspace, hook_event_name: 'SessionEnd', reason: 'other' }]);
  });

  it("tells PreModelRequest and PostModelRequest hooks of a compaction's summary request as foreground_compaction", async () => {
    const { model } = scenario();
    const { log } = configureHooks(scenario(), [
      { event: 'preModelRequest', script: 'exit 0', trusted: true },
      { event: 'postModelRequest', script: 'exit 0', trusted: true },
    ]);
    model.expect([sse(assistantMessage('Hello.'), completed()), sse(assistantMessage('The summary.'), completed({ responseId: 'resp_summary' }))]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client);
    await runTurn(client, threadId, 'Hi.');
    await client.request('thread/compact/start', { threadId });
    // The compaction's PostModelRequest is the fourth hook to run.
    await client.waitFor('hook/completed', (params) => (params as { run: { eventName: string } }).run.eventName === 'postModelRequest' && hookInputs(log).length === 4);
    const [, , pre, post] = hookInputs(log);
    expect(pre).toMatchObject({ hook_event_name: 'PreModelRequest', kind: 'foreground_compaction', attempt_number: 1, thread_id: threadId });
    expect(post).toMatchObject({ hook_event_name: 'PostModelRequest', kind: 'foreground_compaction', request_id: pre!.request_id, status: 'completed', response_id: 'resp_summary' });
  });

  it("runs SubagentStart and SubagentStop for a sub-agent, not SessionStart, UserPromptSubmit or Stop; a SubagentStop block sends the sub-agent on", async () => {
    const { home, model } = scenario();
    const once = path.join(home.home, 'sub-stopped-once');
    const { log } = configureHooks(
      scenario(),
      [
        { event: 'subagentStart', script: `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"SUB-CTX"}}'`, trusted: true },
        { event: 'subagentStop', script: `if [ ! -e ${once} ]; then touch ${once}; echo "check your answer" >&2; exit 2; fi`, trusted: true },
        { event: 'sessionStart', script: 'exit 0', trusted: true },
        { event: 'userPromptSubmit', script: 'exit 0', trusted: true },
        { event: 'stop', script: 'exit 0', trusted: true },
      ],
      { after: '\n[features]\nmulti_agent_v2 = true\n' },
    );
    const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
    const collab = (name: string, args: Record<string, unknown>, callId: string) => functionCall(name, args, { namespace: 'collaboration', callId });
    model.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Say hello.' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('hello'), completed())),
      routed(isChild, sse(assistantMessage('hello, checked'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const client = await scenario().connect();
    const rootId = await scenario().startThread(client);
    await runTurn(client, rootId, 'Delegate.');
    await client.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId !== rootId);
    expect(existsSync(once)).toBe(true);

    const seen = hookInputs(log);
    const root = (await client.request('thread/read', { threadId: rootId })) as { thread: { path: string } };
    const start = seen.find((input) => input.hook_event_name === 'SubagentStart')!;
    const childId = start.agent_id as string;
    expect(childId).not.toBe(rootId);
    expect(start).toMatchObject({ session_id: rootId, agent_type: 'default', permission_mode: 'bypassPermissions' });
    expect(start.transcript_path).not.toBe(root.thread.path);
    const stops = seen.filter((input) => input.hook_event_name === 'SubagentStop');
    expect(stops.map((input) => [input.stop_hook_active, input.last_assistant_message, input.agent_id])).toEqual([
      [false, 'hello', childId],
      [true, 'hello, checked', childId],
    ]);
    // SubagentStop is the parent's event, about the sub-agent's transcript.
    expect(stops[0]).toMatchObject({ transcript_path: root.thread.path, agent_transcript_path: start.transcript_path });
    // The root ran its own opening and Stop; the sub-agent ran none of them.
    const ofRoot = seen.filter((input) => input.agent_id === undefined).map((input) => input.hook_event_name);
    expect(ofRoot).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    // SubagentStart's context ends the sub-agent's context, before its task; the block reaches it as a hook prompt.
    const [first, second] = model.requests.filter(isChild);
    const developer = first!.inputItems().findIndex((item) => JSON.stringify(item).includes('SUB-CTX'));
    const task = first!.inputItems().findIndex((item) => JSON.stringify(item).includes('Say hello.'));
    expect(developer).toBeGreaterThanOrEqual(0);
    expect(developer).toBeLessThan(task);
    expect(second!.messageTexts('user').at(-1)).toMatch(/^<hook_prompt hook_run_id="subagent-stop:\d+:[^"]+">check your answer<\/hook_prompt>$/);
    // The client sees the sub-agent's runs under the sub-agent's thread, and its hook prompt as an item there.
    const childRuns = client.notifications.filter((note) => note.method === 'hook/completed' && (note.params as { threadId: string }).threadId === childId).map((note) => (note.params as { run: { eventName: string; status: string } }).run);
    expect(childRuns.map((run) => [run.eventName, run.status])).toEqual([
      ['subagentStart', 'completed'],
      ['subagentStop', 'blocked'],
      ['subagentStop', 'completed'],
    ]);
    expect(client.notifications.some((note) => note.method === 'item/completed' && (note.params as { threadId: string; item: { type: string } }).threadId === childId && (note.params as { item: { type: string } }).item.type === 'hookPrompt')).toBe(true);
  });
});
