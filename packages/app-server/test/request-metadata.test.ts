// What an app-server thread's model requests say of it, as Codex 0.171.0's app-server sends it
// (the h transcript and probes): no `thread_source` unless the client named one on thread/start, no
// `turn_trigger` for the client's turns, `warm_fork` for a fork of a loaded thread, and the client's
// own user agent (the one the initialize response reported). A turn's `responsesapiClientMetadata`
// joins the turn metadata, never over a key Codex sets, from turn/start and from the queue alike.
import { assistantMessage, codexRequestHeaders, completed, sse, type AppServerTestClient, type CapturedRequest } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();
const recorded = codexRequestHeaders();
const metadataOf = (request: CapturedRequest) => JSON.parse(request.header('x-codex-turn-metadata')!) as Record<string, unknown>;

async function runTurn(client: AppServerTestClient, threadId: string, text: string): Promise<void> {
  const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
}

describe('app-server request metadata', () => {
  it("names no thread source or trigger unless the client did, says a fork is warm, and sends the client's user agent", async () => {
    const server = await scenario().startServer();
    const client = await server.connect('stdio');
    const { userAgent } = (await client.initialize()) as { userAgent: string };
    scenario().model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed()), sse(assistantMessage('Three.'), completed())]);

    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    await runTurn(client, threadId, 'One.');
    const fork = (await client.request('thread/fork', { threadId })) as { thread: { id: string } };
    await runTurn(client, fork.thread.id, 'Two.');
    const named = await scenario().startThread(client, { model: 'gpt-5.5', threadSource: 'subagent' });
    await runTurn(client, named, 'Three.');

    const [first, forked, third] = scenario().model.requests;
    await client.close();
    expect(Object.keys(metadataOf(first!))).toEqual(recorded.appServer.metadataKeys);
    expect(metadataOf(first!)).toMatchObject({ thread_id: threadId, history_initialization: 'new' });
    expect(metadataOf(forked!)).toMatchObject({ thread_id: fork.thread.id, history_initialization: recorded.probed.forkOfLoaded });
    expect(metadataOf(forked!)).not.toHaveProperty('thread_source');
    expect(metadataOf(third!)).toMatchObject({ thread_id: named, thread_source: 'subagent' });
    expect(metadataOf(third!)).not.toHaveProperty('turn_trigger');
    expect(first!.header('user-agent')).toBe(userAgent);
    expect(first!.header('originator')).toBe('skein_test');
  });

  it("adds a turn's responsesapiClientMetadata to its turn metadata, as Codex does, without letting it rename the thread's source", async () => {
    const client = await scenario().connect();
    scenario().model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5', threadSource: 'user' });
    const metadata = { team: 'infra', thread_source: 'subagent', turn_id: 'forged', 'x-codex-installation-id': 'forged' };
    const first = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'One.', text_elements: [] }], responsesapiClientMetadata: metadata })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === first.turn.id);
    // A queued message keeps its metadata until it runs.
    await client.request('thread/queue/add', { threadId, clientUserMessageId: 'queued-1', input: [{ type: 'text', text: 'Two.', text_elements: [] }], responsesapiClientMetadata: { team: 'queued' } });
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id !== first.turn.id);

    const [one, two] = scenario().model.requests;
    expect(metadataOf(one!)).toMatchObject({ team: 'infra', thread_source: 'user', turn_id: first.turn.id });
    expect(metadataOf(one!)).not.toHaveProperty('x-codex-installation-id');
    expect(one!.body!.client_metadata).not.toHaveProperty('team');
    expect(metadataOf(two!)).toMatchObject({ team: 'queued' });
  });
});
