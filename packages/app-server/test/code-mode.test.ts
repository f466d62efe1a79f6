// A code-mode turn over the app-server, as Codex 0.171.0's h transcript shows it (its default model
// runs `echo hi` from an exec cell): the client sees the user message, the nested command's
// commandExecution pair and the answer, and no item for the cell itself. The `_async` tools' messages
// are agent messages delivered `async`, live and when the thread is read back. A nested command that
// needs approval asks the client as a direct one does (the h2 transcript).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, customToolCall, functionCall, probeSandboxForTests, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();
const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));

describe('code mode over the app-server', () => {
  it("shows a cell's nested command as a commandExecution item, and nothing for the cell", async () => {
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-6.2-sol' });
    scenario().model.expect([
      sse(customToolCall('exec', 'const r = await tools.exec_command({ cmd: "echo hi" });\ntext(r.output);', { callId: 'call_cell' }), completed()),
      sse(assistantMessage('It printed `hi`.'), completed()),
    ]);
    await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Run `echo hi` and tell me what it printed.', text_elements: [] }] });
    await client.waitFor('turn/completed');

    const items = (method: string) => client.notificationsOf(method).map((params) => (params as { item: { type: string; command?: string; status?: string } }).item);
    expect(items('item/started').map((item) => item.type)).toEqual(['userMessage', 'commandExecution', 'agentMessage']);
    expect(items('item/completed').map((item) => [item.type, item.status])).toEqual([['userMessage', undefined], ['commandExecution', 'completed'], ['agentMessage', undefined]]);
    expect(items('item/completed')[1]!.command).toBe("/bin/bash -lc 'echo hi'");
    const answer = scenario().model.requests[1]!.body!.input.at(-1)!;
    expect((answer['output'] as { text: string }[]).map((part) => part.text.replace(/\d+\.\d/, '<s>'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'hi\n']);
  });

  it("shows the _async tools' message and questions as agent messages delivered async, live and read back", async () => {
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-6.2-sol' });
    scenario().model.expect([
      sse(functionCall('send_message_to_user_async', { message: 'Working on it.' }, { callId: 'call_say' }), completed()),
      sse(functionCall('request_user_input_async', { questions: [{ title: 'Which file?', options: ['a.ts', 'b.ts'] }] }, { callId: 'call_ask' }), completed()),
      sse(assistantMessage('Asked.'), completed()),
    ]);
    await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }] });
    await client.waitFor('turn/completed');

    const asyncMessages = (items: readonly Record<string, unknown>[]) => items.filter((item) => item['delivery'] === 'async').map(({ id, text, phase, delivery, questions }) => ({ id, text, phase, delivery, questions }));
    const expected = [
      { id: 'call_say', text: 'Working on it.', phase: 'final_answer', delivery: 'async', questions: null },
      { id: 'call_ask', text: 'Which file?\n- a.ts\n- b.ts', phase: 'final_answer', delivery: 'async', questions: [{ title: 'Which file?', options: ['a.ts', 'b.ts'] }] },
    ];
    const live = (method: string) => client.notificationsOf(method).map((params) => (params as { item: Record<string, unknown> }).item);
    expect(asyncMessages(live('item/started'))).toEqual(expected);
    expect(asyncMessages(live('item/completed'))).toEqual(expected);
    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { items: Record<string, unknown>[] }[] } };
    expect(read.thread.turns[0]!.items.map((item) => item['type'])).toEqual(['userMessage', 'agentMessage', 'agentMessage', 'agentMessage']);
    expect(asyncMessages(read.thread.turns[0]!.items)).toEqual(expected);
  });

  it.skipIf(NO_SANDBOX !== '')(`asks the client to approve a cell's nested command, in the h2 transcript's order${NO_SANDBOX}`, async () => {
    const { model, home } = scenario();
    const client = await scenario().connect();
    client.onServerRequest(() => ({ decision: 'accept' }));
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'untrusted', sandbox: 'workspace-write', model: 'gpt-6.2-sol' })) as { thread: { id: string } };
    model.expect([
      sse(customToolCall('exec', 'const r = await tools.exec_command({ cmd: "touch made-by-approval.txt && echo done" });\ntext(r.output);', { callId: 'call_cell' }), completed()),
      sse(assistantMessage('Created made-by-approval.txt.'), completed()),
    ]);
    await client.request('turn/start', { threadId: started.thread.id, input: [{ type: 'text', text: 'Create the file made-by-approval.txt with touch.', text_elements: [] }] });
    await client.waitFor('turn/completed');

    // Codex's order (h2), deltas and usage aside.
    const shown = client.notifications.flatMap(({ method, params }) => {
      const { item, status } = params as { item?: { type: string; status?: string }; status?: { type: string; activeFlags?: string[] } };
      if (method === 'thread/status/changed') return [`status ${status!.type}${status!.activeFlags === undefined ? '' : ` [${status!.activeFlags.join(',')}]`}`];
      if (method === 'item/started' || method === 'item/completed') return [`${method} ${item!.type}${item!.status === undefined ? '' : ` ${item!.status}`}`];
      return method === 'serverRequest/resolved' ? [method] : [];
    });
    expect(shown).toEqual([
      'status active []',
      'item/started userMessage',
      'item/completed userMessage',
      'status active [waitingOnApproval]',
      'item/started commandExecution inProgress',
      'serverRequest/resolved',
      'status active []',
      'item/completed commandExecution completed',
      'item/started agentMessage',
      'item/completed agentMessage',
      'status idle',
    ]);
    expect(client.serverRequests.map((request) => [request.method, (request.params as { command: string }).command])).toEqual([['item/commandExecution/requestApproval', "/bin/bash -lc 'touch made-by-approval.txt && echo done'"]]);
    expect(existsSync(path.join(home.workspace, 'made-by-approval.txt'))).toBe(true);
    const answer = model.requests[1]!.body!.input.at(-1)!;
    expect((answer['output'] as { text: string }[]).map((part) => part.text.replace(/\d+\.\d/, '<s>'))).toEqual(['Script completed\nWall time <s> seconds\nOutput:\n', 'done\n']);
  });
});
