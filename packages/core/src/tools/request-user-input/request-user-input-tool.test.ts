// The request_user_input tool against a scripted client (the host side): what the client is asked,
// and the exact output the model gets for answers, no client, refusals, failures and interrupts.
import type { ToolContext } from '@skein/extension-api';
import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import type { ClientRequests, UserInputAnswers, UserInputRequest } from '../../session/client-requests.js';
import { ToolRouter, isToolCall } from '../tool-router.js';
import { REQUEST_USER_INPUT_SPEC, requestUserInputTool, type RequestUserInputArgs } from './request-user-input-tool.js';
import { testToolContext } from '../../../test/support/tool-context.js';

const COLOR = {
  id: 'color',
  header: 'Color',
  question: 'Which color should the button be?',
  options: [
    { label: 'Red (Recommended)', description: 'Matches the brand.' },
    { label: 'Blue', description: 'Calmer.' },
  ],
};
const SIZE = { id: 'size', header: 'Size', question: 'How large?', options: [{ label: 'Small', description: 'Fits the toolbar.' }] };

/** A client that records what it is asked and answers with `reply` (or waits until aborted when `reply` is 'never'). */
function scriptedClient(reply: ((request: UserInputRequest) => Promise<UserInputAnswers>) | 'never') {
  const asked: UserInputRequest[] = [];
  const unexpected = () => Promise.reject(new Error('not an approval test'));
  const client: ClientRequests = {
    requestCommandApproval: unexpected,
    requestFileChangeApproval: unexpected,
    requestUserInput(request) {
      asked.push(request);
      // A client that ignores the signal: the tool itself must stop waiting on an interrupt.
      return reply === 'never' ? new Promise(() => undefined) : reply(request);
    },
  };
  return { client, asked };
}

function invocation(signal: AbortSignal = new AbortController().signal): ToolContext {
  return testToolContext({ callId: 'call_q', turnId: 'turn_1', signal });
}

describe('request_user_input tool', () => {
  it('offers Codex’s name and parameter schema', () => {
    const described = (schema: object): object => ({ ...schema, description: expect.any(String) as unknown });
    expect(REQUEST_USER_INPUT_SPEC).toEqual({
      type: 'function',
      name: 'request_user_input',
      description: expect.any(String) as unknown,
      strict: false,
      parameters: {
        type: 'object',
        properties: {
          questions: described({
            type: 'array',
            items: {
              type: 'object',
              properties: {
                header: described({ type: 'string' }),
                id: described({ type: 'string' }),
                options: described({
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { description: described({ type: 'string' }), label: described({ type: 'string' }) },
                    required: ['label', 'description'],
                    additionalProperties: false,
                  },
                }),
                question: described({ type: 'string' }),
              },
              required: ['id', 'header', 'question', 'options'],
              additionalProperties: false,
            },
          }),
        },
        required: ['questions'],
        additionalProperties: false,
      },
    });
  });

  it('asks the client every question with isOther and not isSecret, and returns the answers in Codex’s JSON', async () => {
    const { client, asked } = scriptedClient(() => Promise.resolve({ color: { answers: ['Red (Recommended)', 'user_note: darker'] } }));
    const tool = requestUserInputTool({ client });
    const result = await tool.handle({ questions: [COLOR, SIZE] }, invocation());
    expect(asked).toEqual([
      {
        turnId: 'turn_1',
        callId: 'call_q',
        questions: [
          { ...COLOR, isOther: true, isSecret: false },
          { ...SIZE, isOther: true, isSecret: false },
        ],
      },
    ]);
    expect(result).toEqual({ output: '{"answers":{"color":{"answers":["Red (Recommended)","user_note: darker"]}}}', success: true });
  });

  it('keeps only the answer lists of what the client returned', async () => {
    const answers = { size: { answers: ['Small'], note: 'extra' }, color: { answers: [] } } as UserInputAnswers;
    const { client } = scriptedClient(() => Promise.resolve(answers));
    const result = await requestUserInputTool({ client }).handle({ questions: [COLOR, SIZE] }, invocation());
    expect(result.output).toBe('{"answers":{"size":{"answers":["Small"]},"color":{"answers":[]}}}');
  });

  it('answers with no answers when there is no client to ask, as codex exec does', async () => {
    expect(await requestUserInputTool({ client: undefined }).handle({ questions: [COLOR] }, invocation())).toEqual({
      output: '{"answers":{}}',
      success: true,
    });
  });

  it('refuses a question without options before asking anyone', async () => {
    const { client, asked } = scriptedClient(() => Promise.resolve({}));
    const tool = requestUserInputTool({ client });
    const expected = { output: 'request_user_input needs at least one option for every question', success: false };
    expect(await tool.handle({ questions: [COLOR, { ...SIZE, options: [] }] }, invocation())).toEqual(expected);
    expect(await tool.handle({ questions: [{ id: 'x', header: 'X', question: 'Why?' }] }, invocation())).toEqual(expected);
    expect(asked).toEqual([]);
  });

  it('refuses an empty question list', async () => {
    expect(await requestUserInputTool({ client: undefined }).handle({ questions: [] }, invocation())).toEqual({
      output: 'request_user_input needs at least one question',
      success: false,
    });
  });

  it('answers the host’s refusal (such as a collaboration mode that does not allow questions) without asking', async () => {
    const { client, asked } = scriptedClient(() => Promise.resolve({}));
    const tool = requestUserInputTool({ client, refusal: (call) => (call.turnId === 'turn_1' ? 'request_user_input is not available in this mode' : undefined) });
    expect(await tool.handle({ questions: [COLOR] }, invocation())).toEqual({ output: 'request_user_input is not available in this mode', success: false });
    expect(asked).toEqual([]);
  });

  it('tells the model when the request ended without an answer', async () => {
    const { client } = scriptedClient(() => Promise.reject(new Error('client disconnected')));
    expect(await requestUserInputTool({ client }).handle({ questions: [COLOR] }, invocation())).toEqual({
      output: 'request_user_input ended before the user answered',
      success: false,
    });
  });

  it('stops waiting when the turn is interrupted, rejecting so the turn records the aborted output', async () => {
    const { client, asked } = scriptedClient('never');
    const controller = new AbortController();
    const pending = requestUserInputTool({ client }).handle({ questions: [COLOR] }, invocation(controller.signal));
    await expect.poll(() => asked.length).toBe(1);
    controller.abort(new Error('interrupted'));
    await expect(pending).rejects.toThrow('interrupted');
  });

  it('does not ask at all when the turn was already interrupted', async () => {
    const { client, asked } = scriptedClient(() => Promise.resolve({}));
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(requestUserInputTool({ client }).handle({ questions: [COLOR] }, invocation(controller.signal))).rejects.toThrow('interrupted');
    expect(asked).toHaveLength(0);
  });

  it('passes the turn’s signal to the client', async () => {
    let seen: AbortSignal | undefined;
    const client: ClientRequests = {
      requestCommandApproval: () => Promise.reject(new Error('unused')),
      requestFileChangeApproval: () => Promise.reject(new Error('unused')),
      requestUserInput: (_request, signal) => {
        seen = signal;
        return Promise.resolve({});
      },
    };
    const controller = new AbortController();
    await requestUserInputTool({ client }).handle({ questions: [COLOR] }, invocation(controller.signal));
    expect(seen).toBe(controller.signal);
  });

  it('round-trips through the router: JSON arguments in, a string function_call_output out', async () => {
    const { client, asked } = scriptedClient((request) => Promise.resolve({ [request.questions[0]!.id]: { answers: ['Blue'] } }));
    const router = new ToolRouter([requestUserInputTool({ client })]);
    const args: RequestUserInputArgs = { questions: [COLOR] };
    const call = ResponseItem.parse({ type: 'function_call', name: 'request_user_input', call_id: 'call_7', arguments: JSON.stringify(args) });
    if (!isToolCall(call)) throw new Error('not a tool call');
    expect(await router.dispatch(call, testToolContext({ turnId: 'turn_2' }))).toEqual({
      item: { type: 'function_call_output', call_id: 'call_7', output: '{"answers":{"color":{"answers":["Blue"]}}}' },
      success: true,
    });
    expect(asked.map((request) => [request.turnId, request.callId])).toEqual([['turn_2', 'call_7']]);
  });

  it('refuses malformed arguments through the router without asking', async () => {
    const { client, asked } = scriptedClient(() => Promise.resolve({}));
    const router = new ToolRouter([requestUserInputTool({ client })]);
    const call = ResponseItem.parse({ type: 'function_call', name: 'request_user_input', call_id: 'call_8', arguments: '{"questions":"bad"}' });
    if (!isToolCall(call)) throw new Error('not a tool call');
    const { item, success } = await router.dispatch(call, testToolContext({ turnId: 'turn_2' }));
    expect(success).toBe(false);
    expect(item).toMatchObject({ type: 'function_call_output', call_id: 'call_8', output: expect.stringMatching(/^failed to parse function arguments: /) as unknown });
    expect(asked).toEqual([]);
  });
});
