import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from './core-event.js';
import { TurnItems } from './turn-items.js';

const commandStarted = (turnId: string, callId: string): CoreEvent => ({ type: 'commandStarted', turnId, callId, command: "/bin/bash -lc 'sleep 1'", cmd: 'sleep 1', cwd: '/w', source: 'agent' });
const commandCompleted = (turnId: string, callId: string): CoreEvent => ({
  type: 'commandCompleted', turnId, callId, command: "/bin/bash -lc 'sleep 1'", argv: ['/bin/bash', '-lc', 'sleep 1'], cwd: '/w', processId: '3', exitCode: 0, aggregatedOutput: '', durationMs: 1000.4, source: 'agent',
});
const summarize = (events: readonly CoreEvent[]) =>
  events.map((event) => (event.type === 'turnItem' ? `${event.phase}:${event.turnId}:${event.item.kind}:${'status' in event.item ? event.item.status : ''}` : event.type === 'turnItemOutputDelta' ? `output:${event.turnId}` : event.type));

describe('TurnItems', () => {
  it('keeps a command in the turn it started in, even when it ends as the next turn begins', () => {
    const items = new TurnItems(() => 0);
    const out = [
      { type: 'turnStarted', turnId: 'A' },
      commandStarted('A', 'c1'),
      // The session already counts turn B as running; the command is still A's.
      { type: 'commandOutputDelta', turnId: 'B', callId: 'c1', chunk: 'x' },
      commandCompleted('B', 'c1'),
    ].flatMap((event) => items.observe(event as CoreEvent));
    expect(summarize(out)).toEqual(['started:A:commandExecution:inProgress', 'output:A', 'completed:A:commandExecution:completed']);
  });

  it('drops what a command of an earlier turn reports once the next turn started', () => {
    const items = new TurnItems(() => 0);
    const out = [{ type: 'turnStarted', turnId: 'A' }, commandStarted('A', 'c1'), { type: 'turnStarted', turnId: 'B' }, commandCompleted('B', 'c1')].flatMap((event) => items.observe(event as CoreEvent));
    expect(summarize(out)).toEqual(['started:A:commandExecution:inProgress']);
  });

  it('shows a command from its approval question on, and completes a declined one as declined', () => {
    const items = new TurnItems(() => 5);
    const request = { turnId: 'A', callId: 'c1', command: 'rm x', script: 'rm x', cwd: '/w', environmentId: 'local', availableDecisions: ['accept' as const] };
    items.observe({ type: 'turnStarted', turnId: 'A' });
    const asked = items.commandAwaitingApproval(request);
    expect(asked).toMatchObject([{ type: 'turnItem', phase: 'started', item: { kind: 'commandExecution', awaitingApproval: true, executed: false, startedAtMs: 5 } }]);
    expect(summarize(items.commandAnswered(request, true))).toEqual(['completed:A:commandExecution:declined']);
    // An approved command's item was already shown: running it starts no second item.
    items.commandAwaitingApproval({ ...request, callId: 'c2' });
    expect(items.commandAnswered({ ...request, callId: 'c2' }, false)).toEqual([]);
    expect(items.observe(commandStarted('A', 'c2'))).toEqual([]);
    expect(summarize(items.observe(commandCompleted('A', 'c2')))).toEqual(['completed:A:commandExecution:completed']);
  });

  it('reports a patch declined at its approval as declined when the patch tool gives up', () => {
    const items = new TurnItems(() => 0);
    const changes = [{ path: '/w/a.txt', kind: 'add' as const, diff: 'a\n' }];
    items.observe({ type: 'turnStarted', turnId: 'A' });
    items.patchAwaitingApproval({ turnId: 'A', callId: 'p1', changes });
    items.patchAnswered({ turnId: 'A', callId: 'p1', changes }, true);
    const out = items.observe({ type: 'patchApplied', turnId: 'A', callId: 'p1', success: false, output: 'patch rejected by user\n', changes });
    expect(out).toMatchObject([{ phase: 'completed', item: { kind: 'fileChange', status: 'declined', output: 'patch rejected by user\n' } }]);
  });

  it('turns assistant messages and reasoning into items, and leaves other response items alone', () => {
    const items = new TurnItems(() => 0);
    const message = ResponseItem.parse({ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hi.' }] });
    const call = ResponseItem.parse({ type: 'function_call', id: 'fc_1', name: 'x', arguments: '{}', call_id: 'c' });
    const out = [
      { type: 'itemStarted', turnId: 'A', item: message },
      { type: 'itemCompleted', turnId: 'A', item: message },
      { type: 'itemCompleted', turnId: 'A', item: call },
    ].flatMap((event) => items.observe(event as CoreEvent));
    expect(out).toMatchObject([{ phase: 'started', item: { kind: 'agentMessage', text: '' } }, { phase: 'completed', item: { kind: 'agentMessage', text: 'Hi.' } }]);
  });
});
