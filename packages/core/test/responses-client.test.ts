// The model client against the mock Responses server: what it sends, what it yields, how it retries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelProviderInfo } from '@skein/config';
import {
  assistantMessage,
  completed,
  failed,
  functionCall,
  httpError,
  reasoningItem,
  sse,
  startMockResponsesServer,
  streamCut,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError, ResponsesClient, type ResponseEvent } from '../src/index.js';

const BODY = {
  model: 'gpt-5.5',
  stream: true,
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] }],
};

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function provider(baseUrl: string, overrides: Partial<ModelProviderInfo> = {}): ModelProviderInfo {
  return {
    id: 'mock',
    name: 'Mock',
    baseUrl,
    envKey: 'MOCK_API_KEY',
    envKeyInstructions: undefined,
    wireApi: 'responses',
    queryParams: {},
    httpHeaders: {},
    envHttpHeaders: {},
    requestMaxRetries: 2,
    streamMaxRetries: 2,
    streamIdleTimeoutMs: 30_000,
    requiresOpenaiAuth: false,
    supportsWebsockets: false,
    runsHostedTools: true,
    ...overrides,
  };
}

/** A client with instant, recorded sleeps and a fixed jitter. */
function client(info: ModelProviderInfo, env: Record<string, string> = { MOCK_API_KEY: 'sk-test' }) {
  const sleeps: number[] = [];
  const instance = new ResponsesClient({
    provider: info,
    env,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    retryPolicy: { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 },
  });
  return { instance, sleeps };
}

async function collect(stream: AsyncIterable<ResponseEvent>): Promise<ResponseEvent[]> {
  const events: ResponseEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function failure(stream: AsyncIterable<ResponseEvent>): Promise<{ error: ModelError; events: ResponseEvent[] }> {
  const events: ResponseEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    if (error instanceof ModelError) return { error, events };
    throw error;
  }
  throw new Error('expected the stream to fail');
}

describe('ResponsesClient', () => {
  it('sends the body with auth and provider headers and yields the stream as typed events', async () => {
    server = await startMockResponsesServer({
      responses: [sse(reasoningItem('thinking'), assistantMessage(['Hel', 'lo.']), completed())],
    });
    const info = provider(server.url, {
      queryParams: { 'api-version': '2026-01-01' },
      httpHeaders: { 'x-team': 'skein' },
      envHttpHeaders: { 'x-org': 'MOCK_ORG', 'x-absent': 'UNSET_VAR' },
    });
    const { instance } = client(info, { MOCK_API_KEY: 'sk-test', MOCK_ORG: 'org-1' });
    const events = await collect(instance.stream(BODY, { headers: { 'session-id': 'thread-1' } }));

    expect(events.map((event) => event.type)).toEqual([
      'created',
      'outputItemAdded',
      'reasoningSummaryDelta',
      'outputItemDone',
      'outputItemAdded',
      'outputTextDelta',
      'outputTextDelta',
      'outputItemDone',
      'completed',
    ]);
    expect(events.filter((event) => event.type === 'outputTextDelta').map((event) => event.delta)).toEqual(['Hel', 'lo.']);
    const done = events.filter((event) => event.type === 'outputItemDone').map((event) => event.item);
    expect(done[1]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] });
    expect(events.at(-1)).toMatchObject({ type: 'completed', usage: { input_tokens: expect.any(Number) as number } });

    const request = server.requests[0]!;
    expect(request.json).toEqual(BODY);
    expect(request.path).toBe('/v1/responses');
    expect(request.query).toMatchObject({ 'api-version': '2026-01-01' });
    expect(request.header('authorization')).toBe('Bearer sk-test');
    expect(request.header('accept')).toBe('text/event-stream');
    expect(request.header('x-team')).toBe('skein');
    expect(request.header('x-org')).toBe('org-1');
    expect(request.header('x-absent')).toBeUndefined();
    expect(request.header('session-id')).toBe('thread-1');
    server.verify();
  });

  it('fails before sending anything when the API key variable is missing', async () => {
    server = await startMockResponsesServer();
    const { error } = await failure(client(provider(server.url), {}).instance.stream(BODY));
    expect(error.code).toBe('MissingApiKey');
    expect(error.message).toContain('MOCK_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('retries a 5xx with backoff, then streams the answer', async () => {
    server = await startMockResponsesServer({
      responses: [httpError(500), httpError(502), sse(assistantMessage('ok'), completed())],
    });
    const { instance, sleeps } = client(provider(server.url));
    const events = await collect(instance.stream(BODY));
    expect(events.filter((event) => event.type === 'retrying').map((event) => event.type === 'retrying' && event.attempt)).toEqual([1, 2]);
    expect(sleeps).toEqual([75, 150]);
    expect(events.at(-1)?.type).toBe('completed');
    expect(server.requests.map((request) => request.json)).toEqual([BODY, BODY, BODY]);
    server.verify();
  });

  it('gives up after request_max_retries and reports the server error', async () => {
    server = await startMockResponsesServer({ responses: [httpError(500), httpError(500), httpError(500)] });
    const { error, events } = await failure(client(provider(server.url)).instance.stream(BODY));
    expect(error).toMatchObject({ code: 'ServerError', retryable: true, details: { status: 500 } });
    expect(events.filter((event) => event.type === 'retrying')).toHaveLength(2);
    server.verify();
  });

  it('honours retry-after on 429', async () => {
    server = await startMockResponsesServer({
      responses: [httpError(429, { headers: { 'retry-after': '2' }, body: { error: { message: 'slow down' } } }), sse(completed())],
    });
    const { instance, sleeps } = client(provider(server.url));
    await collect(instance.stream(BODY));
    expect(sleeps).toEqual([2000]);
  });

  it('sends the request again when the stream is cut before response.completed', async () => {
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage(['par', 'tial']), streamCut()), sse(functionCall('exec_command', { cmd: 'ls' }), completed())],
    });
    const events = await collect(client(provider(server.url)).instance.stream(BODY));
    const retry = events.findIndex((event) => event.type === 'retrying');
    expect(retry).toBeGreaterThan(0);
    expect(events[retry]).toMatchObject({ type: 'retrying', attempt: 1, reason: expect.stringContaining('before response.completed') as string });
    expect(events.slice(retry + 1).map((event) => event.type)).toEqual(['created', 'outputItemAdded', 'outputItemDone', 'completed']);
    server.verify();
  });

  it('reports a transport error when the connection drops mid-body and retries are exhausted', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('x'), streamCut({ reset: true }))] });
    const { error } = await failure(client(provider(server.url, { streamMaxRetries: 0 })).instance.stream(BODY));
    expect(['Transport', 'StreamDisconnected']).toContain(error.code);
  });

  it('names the URL and the cause when the provider cannot be reached', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const { error } = await failure(client(provider(baseUrl, { requestMaxRetries: 0, queryParams: { 'api-key': 'secret' } })).instance.stream(BODY));
    expect(error.code).toBe('Transport');
    expect(error.message).toBe(`could not reach the provider at ${baseUrl}/responses: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('classifies a context-window failure and does not retry it', async () => {
    server = await startMockResponsesServer({
      responses: [sse(failed('context_length_exceeded', 'Your input exceeds the context window of this model.'))],
    });
    const { error, events } = await failure(client(provider(server.url)).instance.stream(BODY));
    expect(error).toMatchObject({ code: 'ContextWindowExceeded', retryable: false, details: { serverCode: 'context_length_exceeded' } });
    expect(events.some((event) => event.type === 'retrying')).toBe(false);
    server.verify();
  });

  it.each([
    [400, { error: { code: 'context_length_exceeded', message: 'too long' } }, 'ContextWindowExceeded'],
    [429, { error: { type: 'usage_limit_reached', message: 'limit' } }, 'UsageLimitReached'],
    [429, { error: { code: 'insufficient_quota', message: 'quota' } }, 'QuotaExceeded'],
    [401, { error: { message: 'bad key' } }, 'Unauthorized'],
    [400, { error: { message: 'invalid tool' } }, 'BadRequest'],
  ])('maps HTTP %i %j to %s without retrying', async (status, body, code) => {
    server = await startMockResponsesServer({ responses: [httpError(status, { body })] });
    const { error } = await failure(client(provider(server.url)).instance.stream(BODY));
    expect(error.code).toBe(code);
    expect(server.requests).toHaveLength(1);
  });

  it('ignores stream events it does not know', async () => {
    server = await startMockResponsesServer({
      responses: [sse({ type: 'response.in_progress', response: { id: 'r' } }, { type: 'response.brand_new_event', data: 1 }, assistantMessage('hi'), completed())],
    });
    const events = await collect(client(provider(server.url)).instance.stream(BODY));
    expect(events.map((event) => event.type)).toEqual(['created', 'outputItemAdded', 'outputTextDelta', 'outputItemDone', 'completed']);
  });

  it('reads a safety-buffering notice from response.metadata in both of the shapes Codex reads, and ignores a malformed one', async () => {
    const notice = (metadata: Record<string, unknown>) => sse({ type: 'response.metadata', ...metadata }, assistantMessage('hi'), completed());
    server = await startMockResponsesServer({
      responses: [
        notice({ safety_buffering: { use_cases: ['cyber'], reasons: ['r'], retry_model: 'm-event' } }),
        { ...notice({ metadata: { type: 'safety_buffering', use_cases: [], reasons: ['n'] } }), headers: { 'x-codex-safety-buffering-faster-model': 'm-header' } },
        notice({ safety_buffering: { use_cases: 'cyber', reasons: [] }, metadata: { openai_verification_recommendation: ['x'] } }),
      ],
    });
    const { instance } = client(provider(server.url));
    const buffering = async () => (await collect(instance.stream(BODY))).filter((event) => event.type === 'safetyBuffering');
    expect(await buffering()).toEqual([{ type: 'safetyBuffering', useCases: ['cyber'], reasons: ['r'], fasterModel: 'm-event' }]);
    expect(await buffering()).toEqual([{ type: 'safetyBuffering', useCases: [], reasons: ['n'], fasterModel: 'm-header' }]);
    expect(await buffering()).toEqual([]);
  });

  it('cancels the request when the signal aborts', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage(['a', 'b', 'c']), completed())] });
    const controller = new AbortController();
    const events: ResponseEvent[] = [];
    const { error } = await failure(
      (async function* () {
        for await (const event of client(provider(server.url)).instance.stream(BODY, { signal: controller.signal })) {
          events.push(event);
          if (event.type === 'outputItemAdded') controller.abort();
          yield event;
        }
      })(),
    );
    expect(error.code).toBe('Aborted');
  });
});

describe('idle timeout', () => {
  let stalling: Server | undefined;
  afterEach(() => stalling?.close());

  it('gives up on a stream that goes silent', async () => {
    // A provider that opens the stream and then never sends another byte.
    stalling = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: response.created\ndata: {"type":"response.created","response":{"id":"r1"}}\n\n');
    });
    await new Promise<void>((resolve) => stalling!.listen(0, '127.0.0.1', resolve));
    const { port } = stalling.address() as AddressInfo;
    const info = provider(`http://127.0.0.1:${port}/v1`, { streamIdleTimeoutMs: 200, streamMaxRetries: 0 });
    const { error, events } = await failure(client(info).instance.stream(BODY));
    expect(events).toEqual([{ type: 'created', responseId: 'r1' }]);
    expect(error).toMatchObject({ code: 'IdleTimeout', retryable: true });
    stalling.closeAllConnections();
  });
});

// Which key a provider is sent, as Codex 0.171.0 picks it (probed with `codex exec` against the mock):
// an `env_key` provider takes its variable only; a provider with OpenAI's sign-in and no `env_key`
// takes CODEX_API_KEY, then the key saved in auth.json, and never reads OPENAI_API_KEY.
describe('the API key', () => {
  /** The authorization header of one request sent with `env` and a `saved` key (`none` without one), or the error. */
  async function sent(overrides: Partial<ModelProviderInfo>, env: Record<string, string>, saved: string | undefined): Promise<string> {
    const model = await startMockResponsesServer({ responses: [sse(assistantMessage('ok'), completed())] });
    const instance = new ResponsesClient({ provider: provider(model.url, overrides), env, savedApiKey: () => saved });
    try {
      await collect(instance.stream(BODY));
      return model.requests[0]!.header('authorization') ?? 'none';
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      model.tolerate('unconsumed-response', 'a request refused for its missing key is never sent');
      expect(model.requests).toHaveLength(0);
      return `${error.code}: ${error.message}`;
    } finally {
      await model.close();
    }
  }

  const openaiAuth = { envKey: undefined, requiresOpenaiAuth: true };
  const builtInOpenai = { id: 'openai', envKey: 'OPENAI_API_KEY', requiresOpenaiAuth: true };

  it('sends a provider with OpenAI sign-in the saved key, CODEX_API_KEY before it, and ignores OPENAI_API_KEY', async () => {
    expect(await sent(openaiAuth, {}, 'sk-saved')).toBe('Bearer sk-saved');
    expect(await sent(openaiAuth, { OPENAI_API_KEY: 'sk-env' }, 'sk-saved')).toBe('Bearer sk-saved');
    expect(await sent(openaiAuth, { CODEX_API_KEY: 'sk-codex' }, 'sk-saved')).toBe('Bearer sk-codex');
    expect(await sent(openaiAuth, { CODEX_API_KEY: '' }, 'sk-saved')).toBe('Bearer sk-saved');
    // Signed out and no CODEX_API_KEY: Codex sends the request with no key at all.
    expect(await sent(openaiAuth, { OPENAI_API_KEY: 'sk-env' }, undefined)).toBe('none');
  });

  it('sends the built-in openai provider the sign-in first, then OPENAI_API_KEY, and says how to sign in when there is neither', async () => {
    expect(await sent(builtInOpenai, { OPENAI_API_KEY: 'sk-env' }, 'sk-saved')).toBe('Bearer sk-saved');
    expect(await sent(builtInOpenai, { OPENAI_API_KEY: 'sk-env', CODEX_API_KEY: 'sk-codex' }, 'sk-saved')).toBe('Bearer sk-codex');
    expect(await sent(builtInOpenai, { OPENAI_API_KEY: 'sk-env' }, undefined)).toBe('Bearer sk-env');
    expect(await sent(builtInOpenai, {}, undefined)).toMatch(/^MissingApiKey: .*OPENAI_API_KEY.*skein login --with-api-key/);
  });

  it('sends an env_key provider its variable only, even when it takes OpenAI sign-in', async () => {
    const ownKey = { envKey: 'MOCK_API_KEY', requiresOpenaiAuth: true };
    expect(await sent(ownKey, { MOCK_API_KEY: 'sk-mock', CODEX_API_KEY: 'sk-codex' }, 'sk-saved')).toBe('Bearer sk-mock');
    expect(await sent(ownKey, { CODEX_API_KEY: 'sk-codex' }, 'sk-saved')).toMatch(/^MissingApiKey: missing environment variable MOCK_API_KEY/);
    expect(await sent({ envKey: 'MOCK_API_KEY' }, {}, 'sk-saved')).toMatch(/^MissingApiKey: /);
  });

  it('sends a provider with neither env_key nor OpenAI sign-in no key', async () => {
    expect(await sent({ envKey: undefined }, { CODEX_API_KEY: 'sk-codex', OPENAI_API_KEY: 'sk-env' }, 'sk-saved')).toBe('none');
  });
});
