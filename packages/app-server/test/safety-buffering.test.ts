// A response the server holds back for a safety review: Codex 0.171.0 (probed) tells the client with
// `model/safetyBuffering/updated` as soon as the stream's `response.metadata` says so, before any of
// the held output, with the suggested faster model from the event or else from the response header.
import { assistantMessage, completed, safetyBuffering, sse, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

async function runTurn(client: AppServerTestClient, threadId: string, text: string): Promise<string> {
  const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
  return answer.turn.id;
}

describe('safety buffering', () => {
  it('announces a buffered response before its output, with the faster model from the event, else the header', async () => {
    const client = await scenario().connect();
    scenario().model.expect([
      sse(safetyBuffering({ useCases: ['cyber'], reasons: ['review'], retryModel: 'gpt-fast' }), assistantMessage('Held.'), completed()),
      { ...sse(safetyBuffering({ useCases: [], reasons: ['policy'] }), assistantMessage('Also held.'), completed()), headers: { 'x-codex-safety-buffering-faster-model': 'gpt-header' } },
      // Without its lists the notice is not one, and the turn goes on as usual.
      sse({ type: 'response.metadata', safety_buffering: { use_cases: ['x'] } }, assistantMessage('Plain.'), completed()),
    ]);
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    const first = await runTurn(client, threadId, 'One.');
    const second = await runTurn(client, threadId, 'Two.');
    const third = await runTurn(client, threadId, 'Three.');

    const notices = client.notifications.filter((n) => n.method === 'model/safetyBuffering/updated').map((n) => n.params);
    expect(notices).toEqual([
      { threadId, turnId: first, model: 'gpt-5.5', useCases: ['cyber'], reasons: ['review'], showBufferingUi: true, fasterModel: 'gpt-fast' },
      { threadId, turnId: second, model: 'gpt-5.5', useCases: [], reasons: ['policy'], showBufferingUi: true, fasterModel: 'gpt-header' },
    ]);
    const ofFirst = client.notifications.filter((n) => (n.params as { turnId?: string }).turnId === first);
    const notice = ofFirst.findIndex((n) => n.method === 'model/safetyBuffering/updated');
    const answer = ofFirst.findIndex((n) => n.method === 'item/started' && (n.params as { item: { type: string } }).item.type === 'agentMessage');
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(notice).toBeLessThan(answer);
    expect(client.notifications.some((n) => (n.params as { turnId?: string }).turnId === third && n.method === 'error')).toBe(false);
    await client.close();
  });
});
