import type { CustomToolHandler, FunctionToolHandler, NamespaceToolHandler } from '@skein/extension-api';
import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ToolRouter, isToolCall, type ToolCall } from './tool-router.js';
import { testToolContext } from '../../test/support/tool-context.js';

const add: FunctionToolHandler<{ a: number; b: number }> = {
  kind: 'function',
  spec: { type: 'function', name: 'add', description: 'Adds two numbers.', strict: false, parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
  arguments: z.object({ a: z.number(), b: z.number() }),
  handle: ({ a, b }) => Promise.resolve({ output: String(a + b), success: true }),
};
const shout: CustomToolHandler = {
  kind: 'custom',
  spec: { type: 'custom', name: 'shout', description: 'Upper-cases text.' },
  handle: (input) => (input === 'boom' ? Promise.reject(new Error('exploded')) : Promise.resolve({ output: input.toUpperCase(), success: true })),
};
const router = new ToolRouter([add, shout]);
const ctx = testToolContext({ turnId: 't' });
const call = (value: unknown) => {
  const item = ResponseItem.parse(value);
  if (!isToolCall(item)) throw new Error('not a call');
  return item satisfies ToolCall;
};

describe('ToolRouter', () => {
  it('offers the specs in registration order and rejects duplicate names', () => {
    expect(router.specs().map((spec) => 'name' in spec && spec.name)).toEqual(['add', 'shout']);
    expect(() => new ToolRouter([add, add])).toThrow(/two tools are named 'add'/);
  });

  it('parses function arguments and answers with a function_call_output', async () => {
    const result = await router.dispatch(call({ type: 'function_call', name: 'add', arguments: '{"a":2,"b":3}', call_id: 'c1' }), ctx);
    expect(result).toEqual({ item: { type: 'function_call_output', call_id: 'c1', output: '5' }, success: true });
  });

  it('answers a custom call with a custom_tool_call_output', async () => {
    const result = await router.dispatch(call({ type: 'custom_tool_call', name: 'shout', input: 'hi', call_id: 'c2' }), ctx);
    expect(result.item).toEqual({ type: 'custom_tool_call_output', call_id: 'c2', output: 'HI' });
  });

  it.each([
    [{ type: 'function_call', name: 'nope', arguments: '{}', call_id: 'c' }, 'unsupported call: nope'],
    [{ type: 'function_call', name: 'add', arguments: '{not json', call_id: 'c' }, 'failed to parse function arguments: '],
    [{ type: 'function_call', name: 'add', arguments: '{"a":"2","b":3}', call_id: 'c' }, 'failed to parse function arguments: ✖'],
    [{ type: 'function_call', name: 'shout', arguments: '{}', call_id: 'c' }, 'shout takes free-form input'],
    [{ type: 'custom_tool_call', name: 'add', input: 'x', call_id: 'c' }, 'add takes JSON arguments'],
    [{ type: 'custom_tool_call', name: 'shout', input: 'boom', call_id: 'c' }, 'shout failed: exploded'],
  ])('turns %j into an output the model can read', async (value, text) => {
    const result = await router.dispatch(call(value), ctx);
    expect(result.success).toBe(false);
    expect(result.item).toMatchObject({ call_id: 'c' });
    expect((result.item as { output: string }).output).toContain(text);
  });
});

describe('ToolRouter namespaces', () => {
  const math: NamespaceToolHandler = { kind: 'namespace', name: 'math', description: 'Arithmetic.', tools: [add] };
  const grouped = new ToolRouter([shout, math]);

  it('offers a namespace as one tool holding its tools’ specs', () => {
    expect(grouped.specs()).toEqual([shout.spec, { type: 'namespace', name: 'math', description: 'Arithmetic.', tools: [add.spec] }]);
    expect(() => new ToolRouter([{ ...math, tools: [add, add] }])).toThrow(/two tools in namespace 'math' are named 'add'/);
  });

  it('offers only the direct tools of a namespace, and the namespace only when one is left', async () => {
    const hiddenAdd = { ...add, exposure: 'hidden' as const };
    expect(new ToolRouter([{ ...math, tools: [hiddenAdd, shout] }]).specs()).toEqual([{ type: 'namespace', name: 'math', description: 'Arithmetic.', tools: [shout.spec] }]);
    expect(new ToolRouter([{ ...math, tools: [hiddenAdd] }]).specs()).toEqual([]);
    const result = await new ToolRouter([{ ...math, tools: [hiddenAdd] }]).dispatch(call({ type: 'function_call', namespace: 'math', name: 'add', arguments: '{"a":1,"b":2}', call_id: 'h' }), ctx);
    expect(result).toMatchObject({ success: true, item: { output: '3' } });
  });

  it('dispatches a call that names the namespace to the tool inside it', async () => {
    const result = await grouped.dispatch(call({ type: 'function_call', namespace: 'math', name: 'add', arguments: '{"a":1,"b":1}', call_id: 'n1' }), ctx);
    expect(result).toMatchObject({ item: { type: 'function_call_output', call_id: 'n1', output: '2' }, success: true });
  });

  it.each([
    [{ type: 'function_call', name: 'add', arguments: '{}', call_id: 'c' }, 'unsupported call: add'],
    [{ type: 'function_call', name: 'math', arguments: '{}', call_id: 'c' }, 'math is a namespace; call one of its tools: add'],
    [{ type: 'function_call', namespace: 'math', name: 'sub', arguments: '{}', call_id: 'c' }, 'unsupported call: math.sub'],
    [{ type: 'function_call', namespace: 'nope', name: 'add', arguments: '{}', call_id: 'c' }, 'unsupported call: nope.add'],
  ])('answers %j with a readable failure', async (value, text) => {
    const result = await grouped.dispatch(call(value), ctx);
    expect(result.success).toBe(false);
    expect((result.item as { output: string }).output).toBe(text);
  });
});
