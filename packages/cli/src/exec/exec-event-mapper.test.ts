import { ModelError, NO_TOKENS, TurnItems, type CoreEvent } from '@skein/core';
import { ExecEvent, ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { ExecEventMapper } from './exec-event-mapper.js';

const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 20 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 110 };
const breakdown = (times: number) => ({ inputTokens: 100 * times, cachedInputTokens: 20 * times, cacheWriteInputTokens: 0, outputTokens: 10 * times, reasoningOutputTokens: 3 * times, totalTokens: 110 * times });
/** What the session emits after a response: that response's usage and the thread's running total. */
const afterResponse = (turnId: string, responsesSoFar: number): CoreEvent[] => [
  { type: 'tokenUsage', turnId, usage },
  { type: 'threadTokenUsage', turnId, last: breakdown(1), total: breakdown(responsesSoFar), modelContextWindow: 272000 },
];
const item = (value: unknown) => ResponseItem.parse(value);
/** The lines for `events` as a session emits them: each fact followed by the turn-item events core derives from it. */
function linesFor(mapper: ExecEventMapper, events: readonly CoreEvent[]) {
  const items = new TurnItems(() => 0);
  return events.flatMap((event) => [event, ...items.observe(event)]).flatMap((event) => mapper.map(event));
}

describe('ExecEventMapper', () => {
  it('maps a two-sample turn the way Codex 0.171.0 prints it, with the thread total as usage', () => {
    const mapper = new ExecEventMapper();
    const events: CoreEvent[] = [
      { type: 'turnStarted', turnId: 't' },
      { type: 'itemCompleted', turnId: 't', item: item({ type: 'message', id: 'msg_u', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }) },
      { type: 'itemCompleted', turnId: 't', item: item({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan.' }] }) },
      { type: 'itemCompleted', turnId: 't', item: item({ type: 'function_call', id: 'fc_1', name: 'x', arguments: '{}', call_id: 'c' }) },
      ...afterResponse('t', 1),
      { type: 'agentMessageDelta', turnId: 't', itemId: 'm', delta: 'Hel' },
      { type: 'itemCompleted', turnId: 't', item: item({ type: 'message', id: 'msg_a', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] }) },
      ...afterResponse('t', 2),
      { type: 'turnCompleted', turnId: 't', lastAgentMessage: 'Hello.' },
    ];
    const lines = [...mapper.threadStarted('thread-1'), ...linesFor(mapper, events)];
    for (const line of lines) ExecEvent.parse(line);
    expect(lines).toEqual([
      { type: 'thread.started', thread_id: 'thread-1' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: 'Plan.' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Hello.' } },
      { type: 'turn.completed', usage: { input_tokens: 200, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 6 } },
    ]);
  });

  it("keeps counting item ids across turns, and reports the thread's running total as Codex does after a resume", () => {
    const mapper = new ExecEventMapper();
    const answer = item({ type: 'message', id: 'msg_a', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] });
    const turn = (id: string, responsesSoFar: number): CoreEvent[] => [
      { type: 'turnStarted', turnId: id },
      { type: 'itemCompleted', turnId: id, item: answer },
      ...afterResponse(id, responsesSoFar),
      { type: 'turnCompleted', turnId: id, lastAgentMessage: 'a' },
    ];
    const lines = linesFor(mapper, [...turn('1', 1), ...turn('2', 2)]);
    expect(lines.filter((line) => line.type === 'item.completed').map((line) => line.type === 'item.completed' && line.item.id)).toEqual(['item_0', 'item_1']);
    expect(lines.filter((line) => line.type === 'turn.completed').map((line) => line.type === 'turn.completed' && line.usage.input_tokens)).toEqual([100, 200]);
  });

  it('prints nothing for a compaction, as Codex does', () => {
    const mapper = new ExecEventMapper();
    const events: CoreEvent[] = [
      { type: 'compactionStarted', turnId: 't', itemId: 'c1' },
      { type: 'threadTokenUsage', turnId: 't', last: { ...NO_TOKENS, totalTokens: 700 }, total: { ...NO_TOKENS, totalTokens: 700 }, modelContextWindow: 258_400 },
      { type: 'compactionEnded', turnId: 't', itemId: 'c1', status: 'completed' },
    ];
    expect(linesFor(mapper, events)).toEqual([]);
  });

  it('reports a failed turn as error then turn.failed', () => {
    const lines = new ExecEventMapper().map({ type: 'turnFailed', turnId: 't', error: new ModelError('ServerError', 'the provider failed (HTTP 500)') });
    expect(lines).toEqual([
      { type: 'error', message: 'the provider failed (HTTP 500)' },
      { type: 'turn.failed', error: { message: 'the provider failed (HTTP 500)' } },
    ]);
  });
});
