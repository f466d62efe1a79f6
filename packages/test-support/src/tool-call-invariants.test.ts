// The pairing rules, checked directly on hand-written inputs.
import { describe, expect, it } from 'vitest';
import { checkToolCallInvariants } from './tool-call-invariants.js';

const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
const fnCall = { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'call_1' };
const fnOutput = { type: 'function_call_output', call_id: 'call_1', output: 'ok' };

describe('checkToolCallInvariants', () => {
  it('accepts calls each followed by their output', () => {
    const input = [
      user,
      fnCall,
      fnOutput,
      { type: 'custom_tool_call', name: 'apply_patch', input: '', call_id: 'call_2' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'done' },
      { type: 'local_shell_call', call_id: 'call_3', action: {} },
      { type: 'function_call_output', call_id: 'call_3', output: 'ran' },
    ];

    expect(checkToolCallInvariants(input, { emittedCallIds: ['call_1', 'call_2'] })).toEqual([]);
  });

  it('flags an output with no call before it', () => {
    expect(checkToolCallInvariants([user, fnOutput, fnCall])).toEqual([
      {
        code: 'OutputWithoutCall',
        itemIndex: 1,
        callId: 'call_1',
        message: 'input[1] (function_call_output) answers call_id call_1, but no tool call with that id comes before it',
      },
      { code: 'CallWithoutOutput', itemIndex: 2, callId: 'call_1', message: 'input[2] is a tool call (call_id call_1) with no output after it' },
    ]);
  });

  it('flags a call without an output', () => {
    expect(checkToolCallInvariants([user, fnCall]).map((violation) => violation.code)).toEqual(['CallWithoutOutput']);
  });

  it('flags calls and outputs whose call_id is missing, empty or not a string', () => {
    const input = [
      { type: 'function_call', name: 'a', arguments: '{}' },
      { type: 'custom_tool_call', name: 'b', input: '', call_id: '' },
      { type: 'function_call_output', call_id: 7, output: 'x' },
    ];

    expect(checkToolCallInvariants(input)).toEqual([
      { code: 'EmptyCallId', itemIndex: 0, message: 'input[0] (function_call) has no call_id' },
      { code: 'EmptyCallId', itemIndex: 1, message: 'input[1] (custom_tool_call) has no call_id' },
      { code: 'EmptyCallId', itemIndex: 2, message: 'input[2] (function_call_output) has no call_id' },
    ]);
  });

  it('flags an emitted call that this input does not answer', () => {
    expect(checkToolCallInvariants([user, fnCall, fnOutput], { emittedCallIds: ['call_1', 'call_9'] })).toEqual([
      { code: 'EmittedCallNotAnswered', callId: 'call_9', message: 'the previous response emitted tool call call_9, but this input has no output for it' },
    ]);
  });

  it('ignores items that are not tool calls or outputs, and values that are not items', () => {
    expect(checkToolCallInvariants([user, null, 'text', { type: 'reasoning', summary: [] }, { call_id: 'x' }])).toEqual([]);
  });
});
