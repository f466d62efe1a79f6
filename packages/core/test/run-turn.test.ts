// Whole turns against the mock Responses server, with a test-only tool: what the model receives on
// every request and what the client sees.
import type { ModelProviderInfo } from '@skein/config';
import type { FunctionToolHandler, ToolHandler } from '@skein/extension-api';
import { ResponseItem, toolCallId, toolOutputCallId } from '@skein/protocol';
import {
  assistantMessage,
  completed,
  failed,
  functionCall,
  reasoningItem,
  sse,
  startMockResponsesServer,
  streamCut,
  type CapturedRequest,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ResponsesClient,
  TURN_ABORTED_MESSAGE,
  ThreadHistory,
  ToolRouter,
  SteeredInput,
  TurnToolCalls,
  findModelInfo,
  runTurn,
  type CoreEvent,
  type TurnOutcome,
} from '../src/index.js';
import { testToolContext } from './support/tool-context.js';

const add: FunctionToolHandler<{ a: number; b: number }> = {
  kind: 'function',
  spec: { type: 'function', name: 'add', description: 'Adds two numbers.', strict: false, parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
  arguments: z.object({ a: z.number(), b: z.number() }),
  handle: ({ a, b }) => Promise.resolve({ output: String(a + b), success: true }),
};

/** Blocks until the turn is interrupted; `started` resolves when it begins. */
function blockingTool() {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const handler: FunctionToolHandler<Record<string, never>> = {
    kind: 'function',
    spec: { type: 'function', name: 'wait', description: 'Waits.', strict: false, parameters: { type: 'object', properties: {} } },
    arguments: z.object({}),
    handle: (_args, { signal }) =>
      new Promise((_resolve, reject) => {
        markStarted();
        signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
      }),
  };
  return { handler, started };
}

let server: MockResponsesServer | undefined;
afterEach(async () => {
  // Closing verifies the mock model: no unexpected request, no unused response.
  await server?.close();
  server = undefined;
});

const UUID = (n: number) => `0192f0e6-7c1a-7b7e-9d2a-${String(n).padStart(12, '0')}`;

function harness(url: string, handlers: ToolHandler[] = [add], model = 'gpt-5.5') {
  const provider: ModelProviderInfo = {
    id: 'mock', name: 'Mock', baseUrl: url, envKey: undefined, envKeyInstructions: undefined, wireApi: 'responses', queryParams: {},
    httpHeaders: {}, envHttpHeaders: {}, requestMaxRetries: 0, streamMaxRetries: 1, streamIdleTimeoutMs: 10_000, requiresOpenaiAuth: false, supportsWebsockets: false, runsHostedTools: true,
  };
  let next = 0;
  const history = new ThreadHistory({ toolOutputTokenLimit: 1000, uuid: () => UUID(++next) });
  const events: CoreEvent[] = [];
  const router = new ToolRouter(handlers);
  const emit = (event: CoreEvent) => events.push(event);
  const deps = {
    client: new ResponsesClient({ provider, env: {}, sleep: () => Promise.resolve() }),
    history,
    router,
    calls: new TurnToolCalls({ router, environment: undefined, approvals: () => testToolContext().approvals, emit, newCallId: () => `nested_${++next}` }),
    model: findModelInfo(model),
    request: { promptCacheKey: 'thread-1', clientMetadata: { thread_id: 'thread-1' }, stripItemMetadata: true },
    emit,
    now: () => 0,
  };
  return { deps, history, events };
}

const userInput = (text: string) => ResponseItem.parse({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const types = (events: readonly CoreEvent[]) => events.map((event) => (event.type === 'itemStarted' || event.type === 'itemCompleted' ? `${event.type}:${event.item.type}` : event.type));

describe('runTurn', () => {
  it('runs a tool call and samples again with the call and its output, then completes', async () => {
    server = await startMockResponsesServer({
      responses: [sse(functionCall('add', { a: 2, b: 3 }), completed()), sse(reasoningItem('done adding'), assistantMessage('2 + 3 = 5.'), completed())],
    });
    const { deps, events, history } = harness(server.url);
    const outcome = await runTurn(deps, { turnId: 'turn-1', input: [userInput('What is 2 + 3?')], signal: new AbortController().signal });

    expect(outcome).toEqual({ status: 'completed', lastAgentMessage: '2 + 3 = 5.' });
    const [first, second] = server.requests;
    expect(first!.json).toMatchObject({
      model: 'gpt-5.5',
      input: [{ type: 'message', id: `msg_${UUID(1)}`, role: 'user', content: [{ type: 'input_text', text: 'What is 2 + 3?' }] }],
      tools: [add.spec],
      parallel_tool_calls: true,
    });
    expect(second!.body!.input).toEqual([
      { type: 'message', id: `msg_${UUID(1)}`, role: 'user', content: [{ type: 'input_text', text: 'What is 2 + 3?' }] },
      { type: 'function_call', id: 'fc_mock_0001', name: 'add', arguments: '{"a":2,"b":3}', call_id: 'call_mock_0002', status: 'completed' },
      { type: 'function_call_output', id: `fco_${UUID(2)}`, call_id: 'call_mock_0002', output: '5' },
    ]);
    expect(types(events)).toEqual([
      'turnStarted',
      'itemCompleted:message',
      'itemCompleted:function_call',
      'itemStarted:function_call',
      'itemCompleted:function_call_output',
      // A response's usage follows the calls it asked for, as Codex reports it.
      'tokenUsage',
      // Reasoning is recorded with the item it leads to (the API refuses it alone).
      'itemStarted:reasoning',
      'reasoningSummaryDelta',
      'itemStarted:message',
      'agentMessageDelta',
      'itemCompleted:reasoning',
      'itemCompleted:message',
      'tokenUsage',
      'turnCompleted',
    ]);
    expect(history.items.every((item) => item.metadata?.turn_id === 'turn-1')).toBe(true);
  });

  it('sends each request only once everything recorded before it is written (issue #13: nothing accepted is lost)', async () => {
    server = await startMockResponsesServer({ responses: [sse(functionCall('add', { a: 1, b: 1 }), completed()), sse(assistantMessage('2.'), completed())] });
    const { deps, history } = harness(server.url);
    const mock = server;
    // What had been recorded, and what the model had been sent, each time the turn waited for the file.
    const waits: { readonly recorded: string[]; readonly requests: number }[] = [];
    const written = async () => {
      waits.push({ recorded: history.items.map((item) => item.type), requests: mock.requests.length });
      await Promise.resolve();
    };
    await runTurn({ ...deps, written }, { turnId: 'turn-1', input: [userInput('1 + 1?')], signal: new AbortController().signal });

    expect(waits).toEqual([
      { recorded: ['message'], requests: 0 },
      { recorded: ['message', 'function_call', 'function_call_output'], requests: 1 },
    ]);
  });

  it('keeps what a cut stream completed and retries with it, as Codex does; a call it made is made again', async () => {
    server = await startMockResponsesServer({
      responses: [
        sse(assistantMessage(['Hal', 'f']), functionCall('add', { a: 1, b: 2 }), streamCut()),
        sse(functionCall('add', { a: 1, b: 2 }, { callId: 'call_again' }), completed()),
        sse(assistantMessage('Whole answer.'), completed()),
      ],
    });
    const { deps, events, history } = harness(server.url);
    const outcome = await runTurn(deps, { turnId: 't', input: [userInput('hi')], signal: new AbortController().signal });
    expect(outcome).toEqual({ status: 'completed', lastAgentMessage: 'Whole answer.' });
    expect(events.filter((event) => event.type === 'streamRetrying')).toHaveLength(1);
    // The completed message is kept and sent again; the cut attempt's call never ran.
    const input = (request: CapturedRequest) => (request.body!.input as { type: string; call_id?: string }[]).map((item) => item.call_id ?? item.type);
    expect(input(server.requests[1]!)).toEqual([...input(server.requests[0]!), 'message']);
    expect(history.items.map((item) => toolCallId(item) ?? toolOutputCallId(item) ?? item.type)).toEqual(['message', 'message', 'call_again', 'call_again', 'message']);
  });

  it('keeps no reasoning a cut stream completed without the item it leads to (the API refuses one alone)', async () => {
    server = await startMockResponsesServer({
      responses: [sse(reasoningItem('thinking'), functionCall('add', { a: 1, b: 2 }), streamCut()), sse(assistantMessage('Answer.'), completed())],
    });
    const { deps, history } = harness(server.url);
    await runTurn(deps, { turnId: 't', input: [userInput('hi')], signal: new AbortController().signal });
    expect(server.requests[1]!.json).toEqual(server.requests[0]!.json);
    expect(history.items.map((item) => item.type)).toEqual(['message', 'message']);
  });

  it('ends the turn with a typed error when the context window is exceeded', async () => {
    server = await startMockResponsesServer({ responses: [sse(failed('context_length_exceeded', 'too long'))] });
    const { deps, events } = harness(server.url);
    const outcome = await runTurn(deps, { turnId: 't', input: [userInput('hi')], signal: new AbortController().signal });
    expect(outcome.status).toBe('failed');
    expect((outcome as Extract<TurnOutcome, { status: 'failed' }>).error.code).toBe('ContextWindowExceeded');
    expect(events.at(-1)).toMatchObject({ type: 'turnFailed' });
  });

  it('records an aborted output and a turn_aborted message when interrupted mid-tool, and the next turn sends them', async () => {
    const blocking = blockingTool();
    server = await startMockResponsesServer({
      responses: [sse(functionCall('wait', {}), completed()), sse(assistantMessage('Stopped.'), completed())],
    });
    const { deps, events } = harness(server.url, [add, blocking.handler]);
    const controller = new AbortController();
    const running = runTurn(deps, { turnId: 't1', input: [userInput('wait for it')], signal: controller.signal });
    await blocking.started;
    controller.abort();
    expect(await running).toEqual({ status: 'interrupted' });
    expect(events.at(-1)).toEqual({ type: 'turnAborted', turnId: 't1', reason: 'interrupted' });

    await runTurn(deps, { turnId: 't2', input: [userInput('next')], signal: new AbortController().signal });
    const input = server.requests[1]!.body!.input as Record<string, unknown>[];
    expect(input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message']);
    expect(input[2]).toMatchObject({ call_id: 'call_mock_0002', output: 'aborted by user after 0.0s' });
    expect(input[3]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: TURN_ABORTED_MESSAGE }] });
    expect(input[4]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'next' }] });
  });

  it('starts no further call after an interrupt and keeps the output of a call that finished anyway', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const started = new Promise<void>((resolve) => (release = resolve));
    // Ignores the signal and finishes after the interrupt, as a stubborn command might.
    const stubborn: FunctionToolHandler<Record<string, never>> = {
      kind: 'function',
      spec: { type: 'function', name: 'stubborn', description: 'Finishes regardless.', strict: false, parameters: { type: 'object', properties: {} } },
      arguments: z.object({}),
      handle: (_args, { signal }) =>
        new Promise((resolve) => {
          ran.push('stubborn');
          release();
          signal.addEventListener('abort', () => setTimeout(() => resolve({ output: 'finished anyway', success: true }), 10), { once: true });
        }),
    };
    const counted: FunctionToolHandler<{ a: number; b: number }> = { ...add, handle: (args, invocation) => (ran.push('add'), add.handle(args, invocation)) };
    server = await startMockResponsesServer({ responses: [sse(functionCall('stubborn', {}), functionCall('add', { a: 1, b: 1 }), completed())] });
    // A model without parallel tool calls runs the calls one after another.
    const { deps, history } = harness(server.url, [stubborn, counted], 'llama-local');
    const controller = new AbortController();
    const running = runTurn(deps, { turnId: 't', input: [userInput('go')], signal: controller.signal });
    await started;
    controller.abort();
    expect(await running).toEqual({ status: 'interrupted' });
    expect(ran).toEqual(['stubborn']);
    const outputs = history.items.filter((item) => item.type === 'function_call_output') as { call_id: string; output: string }[];
    expect(outputs.map(({ call_id, output }) => [call_id, output])).toEqual([
      ['call_mock_0002', 'finished anyway'],
      ['call_mock_0004', 'aborted by user after 0.0s'],
    ]);
  });

  it('sends steered input in the next request of the same turn', async () => {
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage('Working on it.'), completed()), sse(assistantMessage('Done, in French too.'), completed())],
    });
    const { deps } = harness(server.url);
    const steered = new SteeredInput();
    let steer = true;
    // The user steers while the model writes its first answer.
    const emit = (event: CoreEvent) => {
      if (event.type === 'itemStarted' && event.item.type === 'message' && steer) {
        steer = false;
        steered.push(userInput('Also answer in French.'));
      }
      deps.emit(event);
    };
    const outcome = await runTurn({ ...deps, emit, hooks: { beforeSampling: [steered], afterResponse: [] } }, { turnId: 't', input: [userInput('Start.')], signal: new AbortController().signal });
    expect(outcome).toEqual({ status: 'completed', lastAgentMessage: 'Done, in French too.' });
    expect(server.requests[0]!.messageTexts('user')).toEqual(['Start.']);
    const texts = server.requests[1]!.messageTexts('user');
    expect(texts).toEqual(['Start.', 'Also answer in French.']);
  });

  it('strips item metadata for providers that are not OpenAI', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('ok'), completed())] });
    const { deps } = harness(server.url);
    await runTurn(deps, { turnId: 't', input: [userInput('hi')], signal: new AbortController().signal });
    expect(JSON.stringify(server.requests[0]!.json)).not.toContain('"metadata"');
  });
});
