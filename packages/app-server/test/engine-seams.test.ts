// The engine seams as an app-server client sees them: a tool that runs exec_command through
// `dispatch` shows the nested command as the same commandExecution items a direct call shows, and
// every thread of the process is in the one thread registry `thread/loaded/list` answers from.
import { ExtensionRegistryBuilder, defineExtension, defineFunctionTool, type ExtensionRegistry } from '@skein/extension-api';
import { probeSandbox } from '@skein/sandboxing';
import {
  assistantMessage,
  completed,
  functionCall,
  mockProviderConfigToml,
  probeSandboxForTests,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  // Closing the mock model verifies it: unexpected requests, broken call pairs, unused responses.
  await model.close();
  home.cleanup();
});

async function serve(extensions?: ExtensionRegistry): Promise<InProcessServer> {
  const server = await startInProcess(home, { threads: threadsOn(home, extensions) });
  servers.push(server);
  return server;
}

async function connect(server: InProcessServer): Promise<AppServerTestClient> {
  const client = await server.connect('stdio');
  clients.push(client);
  await client.initialize();
  return client;
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

async function startThread(client: AppServerTestClient): Promise<string> {
  const result = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'workspace-write' })) as { thread: { id: string } };
  return result.thread.id;
}

/** An extension tool that runs a shell command through exec_command and reports what it printed. */
const shellTwice = defineExtension({
  id: 'shell-twice',
  tools: {
    tools: () =>
      Promise.resolve([
        defineFunctionTool({
          spec: { type: 'function', name: 'run_and_report', description: 'Runs a command and reports.', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
          arguments: z.object({ cmd: z.string() }),
          async handle({ cmd }, context) {
            const nested = await context.dispatch('exec_command', { cmd });
            return { output: `nested said: ${typeof nested.output === 'string' ? nested.output : '(content)'}`, success: nested.success };
          },
        }),
      ]),
  },
});

describe('engine seams over the app-server', () => {
  it.skipIf(NO_SANDBOX !== '')(`shows a command an extension tool ran through dispatch as a commandExecution item, like a direct call${NO_SANDBOX}`, async () => {
    model.expect([
      sse(functionCall('run_and_report', { cmd: 'echo nested' }, { callId: 'call_ext' }), completed()),
      sse(assistantMessage('It printed nested.'), completed()),
    ]);
    const client = await connect(await serve(new ExtensionRegistryBuilder().add(shellTwice).build()));
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('Run it') })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);

    const commandItems = client.notifications.filter(
      (notification) => notification.method.startsWith('item/') && (notification.params as { item?: { type?: string }; itemId?: string }).item?.type === 'commandExecution',
    );
    expect(commandItems.map((notification) => notification.method)).toEqual(['item/started', 'item/completed']);
    const started = (commandItems[0]!.params as { item: { id: string } }).item;
    expect(started).toMatchObject({ type: 'commandExecution', command: "/bin/bash -lc 'echo nested'", cwd: home.workspace, source: 'unifiedExecStartup', status: 'inProgress' });
    // The nested call has its own id, and its output streamed like a direct call's.
    expect(started.id).not.toBe('call_ext');
    expect(client.notificationsOf('item/commandExecution/outputDelta')).toContainEqual(expect.objectContaining({ itemId: started.id, delta: 'nested\n' }));
    expect((commandItems[1]!.params as { item: unknown }).item).toMatchObject({ id: started.id, status: 'completed', exitCode: 0, aggregatedOutput: 'nested\n' });
    // The model sees only its own call's output, which carries the nested command's.
    expect(model.requests[1]!.toolOutputText('call_ext')).toMatch(/^nested said: [\s\S]*Process exited with code 0[\s\S]*nested\n$/);
    expect(JSON.stringify(model.requests[1]!.body!.input)).not.toContain(started.id);
  });

  it('keeps every thread of the process in one registry, which thread/loaded/list answers from', async () => {
    const server = await serve();
    const first = await connect(server);
    const second = await connect(server);
    const one = await startThread(first);
    const two = await startThread(second);
    // Each client started one thread; the list is the process's, so both see both.
    for (const client of [first, second]) expect(await client.request('thread/loaded/list', {})).toMatchObject({ data: [one, two] });
    // Unloading a thread (archiving unloads it) takes it out of the registry.
    await first.request('thread/archive', { threadId: one });
    expect(await second.request('thread/loaded/list', {})).toMatchObject({ data: [two] });
  });
});
