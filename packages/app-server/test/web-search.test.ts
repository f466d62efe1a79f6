// Hosted web search over the app-server: the `web_search` tool in the model's request as config.toml
// sets it, and a `web_search_call` the mock streams as Codex 0.171.0 shows it (probed): a `webSearch`
// item started with an empty query and `{type: "other"}`, completed with what was searched, left out
// of the turn's summary, and rebuilt by `thread/read` from the rollout. Every message is checked
// against Codex's schema by the test client.
import { assistantMessage, completed, sse, webSearchCall, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

async function openThread(config: string): Promise<{ readonly client: AppServerTestClient; readonly threadId: string }> {
  scenario().configure({ before: config });
  const client = await scenario().connect();
  const started = (await client.request('thread/start', { cwd: scenario().home.workspace, approvalPolicy: 'never' })) as { thread: { id: string } };
  return { client, threadId: started.thread.id };
}

async function runTurn(connected: AppServerTestClient, threadId: string, text: string): Promise<Record<string, unknown>> {
  const answer = (await connected.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] })) as { turn: { id: string } };
  return connected.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id) as Promise<Record<string, unknown>>;
}

const ACTION = { type: 'search', query: 'skein runtime', queries: ['skein runtime'] };

describe('hosted web search', () => {
  it('shows a streamed search as a webSearch item, keeps it out of the turn summary, and reads it back from the rollout', async () => {
    const { client: connected, threadId } = await openThread('web_search = "live"\n');
    scenario().model.expect([sse(webSearchCall('skein runtime', { id: 'ws_1' }), assistantMessage('Found it.'), completed())]);
    const done = await runTurn(connected, threadId, 'search');

    expect(scenario().model.requests[0]!.body!.tools?.at(-1)).toEqual({ type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'] });
    const started = connected.notificationsOf('item/started').map((params) => (params as { item: Record<string, unknown> }).item).filter((item) => item['type'] === 'webSearch');
    const finished = connected.notificationsOf('item/completed').map((params) => (params as { item: Record<string, unknown> }).item).filter((item) => item['type'] === 'webSearch');
    const startedAtMs = started[0]?.['startedAtMs'];
    expect(typeof startedAtMs).toBe('number');
    expect(started).toEqual([{ type: 'webSearch', id: 'ws_1', query: '', action: { type: 'other' }, results: null, startedAtMs, completedAtMs: null }]);
    expect(finished).toEqual([{ type: 'webSearch', id: 'ws_1', query: 'skein runtime', action: ACTION, results: null, startedAtMs, completedAtMs: finished[0]?.['completedAtMs'] }]);
    expect(typeof finished[0]?.['completedAtMs']).toBe('number');
    // As in Codex, the turn's summary holds the last agent message only.
    expect((done['turn'] as { items: { type: string }[] }).items.map((item) => item.type)).toEqual(['agentMessage']);

    const read = (await connected.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { items: Record<string, unknown>[] }[] } };
    const items = read.thread.turns[0]!.items;
    expect(items.map((item) => item['type'])).toEqual(['userMessage', 'webSearch', 'agentMessage']);
    expect(items[1]).toMatchObject({ id: 'ws_1', query: 'skein runtime', action: ACTION, results: null });
  });

  it('offers no web_search tool with web_search = "disabled"', async () => {
    const { client: connected, threadId } = await openThread('web_search = "disabled"\n');
    scenario().model.expect([sse(assistantMessage('No search.'), completed())]);
    await runTurn(connected, threadId, 'hello');
    expect(scenario().model.requests[0]!.toolNames()).not.toContain('web_search');
  });
});
