import { FatalToolError, defineCustomTool, defineFunctionTool, type ToolHandler } from '@skein/extension-api';
import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { testToolContext } from '../../test/support/tool-context.js';
import type { CoreEvent } from '../turn/core-event.js';
import { isToolCall, ToolRouter, type ToolCall } from './tool-router.js';
import { MAX_NESTED_DISPATCH_DEPTH, TurnToolCalls } from './turn-tool-calls.js';

const call = (name: string, callId: string, args: unknown = {}): ToolCall => {
  const item = ResponseItem.parse({ type: 'function_call', name, call_id: callId, arguments: JSON.stringify(args) });
  if (!isToolCall(item)) throw new Error('not a call');
  return item;
};
const turn = { turnId: 't', signal: new AbortController().signal };
function calls(tools: ToolHandler[], events: CoreEvent[] = []) {
  let next = 0;
  return new TurnToolCalls({ router: new ToolRouter(tools), environment: undefined, approvals: () => testToolContext().approvals, emit: (event) => events.push(event), newCallId: () => `nested_${++next}` });
}
const noArgs = { type: 'object', properties: {} } as const;

describe('TurnToolCalls', () => {
  it('lets every parallel call of a batch finish before a fatal error fails the turn', async () => {
    let slowDone = false;
    const fatal = defineFunctionTool({ parallel: true, spec: { type: 'function', name: 'fatal', description: '', strict: false, parameters: noArgs }, arguments: z.object({}), handle: () => Promise.reject(new FatalToolError('Broken', 'the executor is gone')) });
    const slow = defineFunctionTool({
      parallel: true,
      spec: { type: 'function', name: 'slow', description: '', strict: false, parameters: noArgs },
      arguments: z.object({}),
      async handle() {
        for (let step = 0; step < 5; step++) await new Promise((resolve) => setImmediate(resolve));
        slowDone = true;
        return { output: 'done', success: true };
      },
    });
    await expect(calls([fatal, slow]).runAll([call('fatal', 'a'), call('slow', 'b')], turn)).rejects.toMatchObject({ code: 'Broken' });
    expect(slowDone).toBe(true);
  });

  it('gives a nested call the input form its tool reads, and refuses to nest deeper than the limit', async () => {
    const seen: unknown[] = [];
    const shout = defineCustomTool({ spec: { type: 'custom', name: 'shout', description: '' }, handle: (input) => Promise.resolve({ output: input.toUpperCase(), success: true }) });
    const add = defineFunctionTool({
      spec: { type: 'function', name: 'add', description: '', strict: false, parameters: noArgs },
      arguments: z.object({ a: z.number(), b: z.number() }),
      handle: ({ a, b }) => Promise.resolve({ output: String(a + b), success: true }),
    });
    const outer = defineFunctionTool({
      spec: { type: 'function', name: 'outer', description: '', strict: false, parameters: noArgs },
      arguments: z.object({}),
      async handle(_args, context) {
        seen.push((await context.dispatch('shout', 'hi')).output, (await context.dispatch('add', { a: 1, b: 2 })).output, (await context.dispatch('add', '{"a":2,"b":2}')).output);
        return { output: 'ok', success: true };
      },
    });
    const deep = defineFunctionTool({
      spec: { type: 'function', name: 'deep', description: '', strict: false, parameters: noArgs },
      arguments: z.object({}),
      handle: (_args, context) => context.dispatch('deep', {}),
    });
    const events: CoreEvent[] = [];
    const [outerOutput, deepOutput] = await calls([shout, add, outer, deep], events).runAll([call('outer', 'o'), call('deep', 'd')], turn);
    expect(outerOutput).toMatchObject({ output: 'ok' });
    expect(seen).toEqual(['HI', '3', '4']);
    expect(deepOutput).toMatchObject({ output: `tools may call tools at most ${MAX_NESTED_DISPATCH_DEPTH} deep; 'deep' was not run` });
    // Each nested call is announced as a call of its kind, then its output.
    const nested = events.flatMap((event) =>
      (event.type === 'itemStarted' || event.type === 'itemCompleted') && 'call_id' in event.item && typeof event.item.call_id === 'string' && event.item.call_id.startsWith('nested_') ? [`${event.type}:${event.item.type}`] : [],
    );
    expect(nested.slice(0, 4)).toEqual(['itemStarted:custom_tool_call', 'itemCompleted:custom_tool_call_output', 'itemStarted:function_call', 'itemCompleted:function_call_output']);
  });

  it('runs a call in the environment it names, a nested call where its caller runs, and refuses an unknown one', async () => {
    const [first, second] = ['first', 'second'].map((id) => ({ ...testToolContext().environment!, id }));
    const where = defineFunctionTool({
      spec: { type: 'function', name: 'where', description: '', strict: false, parameters: noArgs },
      arguments: z.object({}),
      handle: (_args, context) => Promise.resolve({ output: `${context.environment?.id}/${context.environments?.map((environment) => environment.id).join(',')}`, success: true }),
    });
    const relay = defineFunctionTool({
      spec: { type: 'function', name: 'relay', description: '', strict: false, parameters: noArgs },
      arguments: z.object({}),
      handle: (_args, context) => context.dispatch('where', {}),
    });
    const approvalsFor: string[] = [];
    const routed = new TurnToolCalls({
      router: new ToolRouter([where, relay]),
      environment: first,
      environments: [first!, second!],
      approvals: (bound) => {
        approvalsFor.push(bound.environmentId);
        return testToolContext().approvals;
      },
      emit: () => undefined,
      newCallId: () => 'nested',
    });
    const outputs = await routed.runAll(
      [call('where', 'a'), call('where', 'b', { environment_id: 'second' }), call('relay', 'c', { environment_id: 'second' }), call('where', 'd', { environment_id: 'gone' })],
      turn,
    );
    expect(outputs.map((output) => (output as { output: string }).output)).toEqual([
      'first/first,second',
      'second/first,second',
      'second/first,second',
      "unknown environment id `gone`; this thread's environments are `first`, `second`",
    ]);
    expect(approvalsFor).toEqual(['first', 'second', 'second', 'second']);
  });

  it('checkpoints the environment before a call that may write, also one a tool makes, and not before read-only calls', async () => {
    const [first, second] = ['first', 'second'].map((id) => ({ ...testToolContext().environment!, id }));
    const tool = (name: string, options: { parallel?: boolean; relay?: string } = {}) =>
      defineFunctionTool({
        ...(options.parallel === true ? { parallel: true } : {}),
        spec: { type: 'function', name, description: '', strict: false, parameters: noArgs },
        arguments: z.object({}),
        handle: (_args, context) => (options.relay === undefined ? Promise.resolve({ output: name, success: true }) : context.dispatch(options.relay, {})),
      });
    const checkpointed: string[] = [];
    const routed = new TurnToolCalls({
      router: new ToolRouter([tool('write'), tool('read', { parallel: true }), tool('update_plan'), tool('exec', { relay: 'write' })]),
      environment: first,
      environments: [first!, second!],
      approvals: () => testToolContext().approvals,
      emit: () => undefined,
      newCallId: () => 'nested',
      beforeWrite: (environmentId) => {
        checkpointed.push(environmentId);
        return Promise.resolve();
      },
    });
    await routed.runAll([call('read', 'a'), call('update_plan', 'b'), call('write', 'c', { environment_id: 'second' }), call('exec', 'd')], turn);
    // The cell itself is not checked; the write it makes is, where it runs.
    expect(checkpointed).toEqual(['second', 'first']);
    // Setting an agent to work is parallel-safe, but the agent may write the same files meanwhile.
    const spawn = ResponseItem.parse({ type: 'function_call', name: 'spawn_agent', namespace: 'collaboration', call_id: 'e', arguments: '{}' });
    const delegating = new TurnToolCalls({
      router: new ToolRouter([{ kind: 'namespace', name: 'collaboration', description: '', tools: [tool('spawn_agent', { parallel: true })] }]),
      environment: first,
      approvals: () => testToolContext().approvals,
      emit: () => undefined,
      newCallId: () => 'nested',
      beforeWrite: (environmentId) => {
        checkpointed.push(`agents on ${environmentId}`);
        return Promise.resolve();
      },
    });
    if (!isToolCall(spawn)) throw new Error('not a call');
    await delegating.runAll([spawn], turn);
    expect(checkpointed.at(-1)).toBe('agents on first');
  });
});
