// The engine seams through a whole thread against the mock model: extension tools with every
// exposure, Codex's per-tool scheduling, a name collision that is only a warning, nested calls
// through `dispatch`, and a before-sampling hook whose item the request carries and the rollout keeps.
import { readFileSync } from 'node:fs';
import { ExtensionRegistryBuilder, defineExtension, defineFunctionTool, type ToolHandler } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { CoreEvent } from '../src/index.js';
import { say, toolThreadFixture, type ToolThreadFixture } from './support/tool-thread.js';

let server: MockResponsesServer;
let fixture: ToolThreadFixture;

beforeEach(async () => {
  server = await startMockResponsesServer();
  fixture = toolThreadFixture(server);
});
afterEach(async () => {
  await fixture.cleanup();
  // Closing the mock model verifies it: unexpected requests, broken call pairs, unused responses.
  await server.close();
});

const noArgs = { type: 'object', properties: {} } as const;
/** A tool that answers its own name. */
const echoTool = (name: string, metadata: Pick<ToolHandler, 'exposure' | 'parallel'> = {}) =>
  defineFunctionTool({
    ...metadata,
    spec: { type: 'function', name, description: `Answers ${name}.`, strict: false, parameters: noArgs },
    arguments: z.object({}),
    handle: () => Promise.resolve({ output: `${name} ran`, success: true }),
  });
const extensionWith = (...tools: ToolHandler[]) => new ExtensionRegistryBuilder().add(defineExtension({ id: 'acme', tools: { tools: () => Promise.resolve(tools) } })).build();
/** Commands run unconfined here: the scheduling under test does not depend on the sandbox. */
const unconfined = { sandbox: 'danger-full-access' } as const;

describe('engine seams', () => {
  it('offers only direct tools, and runs deferred and hidden ones when called', async () => {
    server.expect([
      sse(functionCall('later', {}, { callId: 'call_later' }), functionCall('secret', {}, { callId: 'call_secret' }), completed()),
      sse(assistantMessage('Both ran.'), completed()),
    ]);
    const extensions = extensionWith(echoTool('visible'), echoTool('later', { exposure: 'deferred' }), echoTool('secret', { exposure: 'hidden' }));
    const { thread } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions });
    await thread.runTurn(say('go'));
    for (const request of server.requests) {
      expect(request.toolNames()).toContain('visible');
      expect(request.toolNames()).not.toContain('later');
      expect(request.toolNames()).not.toContain('secret');
    }
    expect(server.requests[1]!.toolOutputText('call_later')).toBe('later ran');
    expect(server.requests[1]!.toolOutputText('call_secret')).toBe('secret ran');
  });

  it('runs two exec_command calls of one response one after the other, as Codex does', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo one' }, { callId: 'call_one' }), functionCall('exec_command', { cmd: 'echo two' }, { callId: 'call_two' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread, events } = await fixture.openThread('"never"', undefined, unconfined);
    await thread.runTurn(say('run both'));
    const order = events.flatMap((event) => (event.type === 'commandStarted' || event.type === 'commandCompleted' ? [`${event.type}:${event.callId}`] : []));
    expect(order).toEqual(['commandStarted:call_one', 'commandCompleted:call_one', 'commandStarted:call_two', 'commandCompleted:call_two']);
  });

  it('runs parallel-safe extension tools of one response at the same time', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const overlapping = (name: string) =>
      defineFunctionTool({
        parallel: true,
        spec: { type: 'function', name, description: 'Takes a few turns of the event loop.', strict: false, parameters: noArgs },
        arguments: z.object({}),
        async handle() {
          mostAtOnce = Math.max(mostAtOnce, ++running);
          for (let step = 0; step < 5; step++) await new Promise((resolve) => setImmediate(resolve));
          running--;
          return { output: `${name} done`, success: true };
        },
      });
    server.expect([sse(functionCall('left', {}, { callId: 'call_l' }), functionCall('right', {}, { callId: 'call_r' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions: extensionWith(overlapping('left'), overlapping('right')) });
    await thread.runTurn(say('both at once'));
    expect(mostAtOnce).toBe(2);
    // Outputs still go back in call order.
    const outputs = server.requests[1]!.body!.input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id);
    expect(outputs).toEqual(['call_l', 'call_r']);
  });

  it('leaves out an extension tool named like a built-in with a warning, and the turn completes', async () => {
    server.expect([sse(assistantMessage('Hi.'), completed()), sse(assistantMessage('Again.'), completed())]);
    const impostor = echoTool('exec_command');
    const { thread, events } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions: extensionWith(impostor, echoTool('fine')) });
    expect(await thread.runTurn(say('hello'))).toEqual({ status: 'completed', lastAgentMessage: 'Hi.' });
    const warnings = events.filter((event): event is Extract<CoreEvent, { type: 'warning' }> => event.type === 'warning').map((event) => event.message);
    expect(warnings).toEqual(["extension 'acme' tool 'exec_command' is left out: the name 'exec_command' is already taken"]);
    const names = server.requests[0]!.toolNames();
    expect(names.filter((name) => name === 'exec_command')).toHaveLength(1);
    expect(names).toContain('fine');
    // The plan is made once per thread: a second turn warns no more.
    await thread.runTurn(say('again'));
    expect(events.filter((event) => event.type === 'warning')).toHaveLength(1);
  });

  it('asks an extension that failed to offer its tools again on the next turn', async () => {
    server.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    let attempts = 0;
    const flaky = new ExtensionRegistryBuilder()
      .add(defineExtension({ id: 'flaky', tools: { tools: () => (++attempts === 1 ? Promise.reject(new Error('not ready yet')) : Promise.resolve([echoTool('late_tool')])) } }))
      .build();
    const { thread, events } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions: flaky });
    await thread.runTurn(say('one'));
    await thread.runTurn(say('two'));
    expect(events.filter((event) => event.type === 'warning')).toMatchObject([{ message: "extension 'flaky' failed in tools: not ready yet" }]);
    expect(server.requests[0]!.toolNames()).not.toContain('late_tool');
    expect(server.requests[1]!.toolNames()).toContain('late_tool');
  });

  it('keeps input steered into a turn that is interrupted before a request carried it, for the next turn', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = defineFunctionTool({
      spec: { type: 'function', name: 'wait', description: 'Waits until interrupted.', strict: false, parameters: noArgs },
      arguments: z.object({}),
      handle: (_args, context) =>
        new Promise((_resolve, reject) => {
          started();
          context.signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
        }),
    });
    server.expect([sse(functionCall('wait', {}, { callId: 'call_wait' }), completed()), sse(assistantMessage('Got it.'), completed())]);
    const { thread } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions: extensionWith(wait) });
    const first = thread.runTurn(say('start waiting'));
    await running;
    await thread.steer(say('and remember this'));
    thread.interrupt();
    expect(await first).toEqual({ status: 'interrupted' });
    await thread.runTurn(say('next'));
    expect(server.requests[1]!.messageTexts('user')).toContain('and remember this');
  });

  it('lets an extension tool run exec_command through dispatch and use its output', async () => {
    const reporter = defineFunctionTool({
      spec: { type: 'function', name: 'report', description: 'Runs a command and reports.', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
      arguments: z.object({ cmd: z.string() }),
      async handle({ cmd }, context) {
        context.progress('running the command');
        const nested = await context.dispatch('exec_command', { cmd });
        return { output: `report: ${typeof nested.output === 'string' ? nested.output : '(content)'}`, success: nested.success };
      },
    });
    server.expect([sse(functionCall('report', { cmd: 'echo from-dispatch' }, { callId: 'call_report' }), completed()), sse(assistantMessage('Reported.'), completed())]);
    const { thread, events } = await fixture.openThread('"never"', undefined, { ...unconfined, extensions: extensionWith(reporter) });
    await thread.runTurn(say('report'));
    expect(server.requests[1]!.toolOutputText('call_report')).toMatch(/^report: [\s\S]*Process exited with code 0[\s\S]*from-dispatch\n$/);
    const nested = events.find((event): event is Extract<CoreEvent, { type: 'commandCompleted' }> => event.type === 'commandCompleted');
    expect(nested).toMatchObject({ command: "/bin/bash -lc 'echo from-dispatch'", exitCode: 0, aggregatedOutput: 'from-dispatch\n', source: 'agent' });
    expect(nested!.callId).not.toBe('call_report');
    // The client hears of the nested call as of a direct one: started, then its output item.
    const nestedItems = events.flatMap((event) =>
      (event.type === 'itemStarted' || event.type === 'itemCompleted') && 'call_id' in event.item && event.item.call_id === nested!.callId ? [`${event.type}:${event.item.type}`] : [],
    );
    expect(nestedItems).toEqual(['itemStarted:function_call', 'itemCompleted:function_call_output']);
    expect(events).toContainEqual(expect.objectContaining({ type: 'toolProgress', callId: 'call_report', message: 'running the command' }));
    // The nested call is not in the model's history.
    expect(JSON.stringify(server.requests[1]!.body!.input)).not.toContain(nested!.callId);
  });

  it('sends and records what a before-sampling hook appends', async () => {
    server.expect([sse(functionCall('exec_command', { cmd: 'true' }, { callId: 'call_1' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const reminder = (index: number) => ({ type: 'message' as const, role: 'developer' as const, content: [{ type: 'input_text' as const, text: `<reminder>step ${index}</reminder>` }] });
    const { thread } = await fixture.openThread('"never"', undefined, {
      ...unconfined,
      turnHooks: () => ({ beforeSampling: [{ name: 'reminder', beforeSampling: (step) => (step.samplingIndex === 1 ? [reminder(step.samplingIndex)] : []) }] }),
    });
    await thread.runTurn(say('go'));
    expect(server.requests[0]!.messageTexts('developer')).not.toContain('<reminder>step 1</reminder>');
    // The second request carries it after the tool output it follows.
    const input = server.requests[1]!.body!.input;
    const at = input.findIndex((item) => JSON.stringify(item).includes('<reminder>step 1</reminder>'));
    expect(at).toBeGreaterThan(input.findIndex((item) => item.type === 'function_call_output'));
    const lines = readFileSync(thread.path!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: unknown });
    expect(lines.filter((line) => line.type === 'response_item' && JSON.stringify(line.payload).includes('<reminder>step 1</reminder>'))).toHaveLength(1);
  });
});
