import { BUILT_IN_CONTEXT_FRAGMENTS, defineContextFragment, type ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import {
  asLines,
  assistantMessage,
  environmentContext,
  extensionState,
  functionCall,
  functionCallOutput,
  item,
  rolledBack,
  sessionMeta,
  taskComplete,
  taskStarted,
  tokenCount,
  tokens,
  turnContext,
  userMessage,
  userTurn,
  uuidV7,
  worldState,
} from '../../test/support/builders.js';
import type { RolloutItem, RolloutLine } from '../lines/rollout-line.js';
import { ThreadReconstructor, dropLastUserTurns } from './thread-reconstructor.js';

const ID = uuidV7(1);
const WINDOW = uuidV7(77);

function replay(items: readonly RolloutItem[]) {
  const reconstructor = new ThreadReconstructor();
  asLines(items).forEach((line, index) => reconstructor.push(line as RolloutLine, index + 1));
  return reconstructor.finish();
}

const header: RolloutItem = { type: 'session_meta', payload: sessionMeta(ID) };
const texts = (history: readonly unknown[]) => history.map((entry) => ((entry as { content?: { text?: string }[] }).content?.[0]?.text ?? (entry as { type: string }).type));

describe('ThreadReconstructor', () => {
  it('keeps the newest snapshot of every world-state section, in the order sections first appeared', () => {
    const result = replay([
      header,
      worldState({ agents_md: { hash: 'a1' }, skills: { hash: 's1' } }, true),
      ...userTurn('t1', 'first'),
      worldState({ skills: { hash: 's2' }, mcp: { servers: 2 } }),
      worldState({ agents_md: { hash: 'a2' } }),
    ]);
    expect(result.worldState).toEqual([
      { sectionId: 'agents_md', snapshot: { hash: 'a2' } },
      { sectionId: 'skills', snapshot: { hash: 's2' } },
      { sectionId: 'mcp', snapshot: { servers: 2 } },
    ]);
  });

  it('starts the world state over at a full snapshot', () => {
    const result = replay([
      header,
      worldState({ agents_md: { hash: 'a1' }, skills: { hash: 's1' } }, true),
      worldState({ mcp: { servers: 1 } }),
      worldState({ skills: { hash: 's2' } }, true),
      worldState({ agents_md: { hash: 'a3' } }, false),
    ]);
    expect(result.worldState).toEqual([
      { sectionId: 'skills', snapshot: { hash: 's2' } },
      { sectionId: 'agents_md', snapshot: { hash: 'a3' } },
    ]);
    expect(replay([header, ...userTurn('t1', 'first')]).worldState).toEqual([]);
  });

  it('takes the token totals from the newest token_count event with a valid info', () => {
    const result = replay([
      header,
      tokenCount(null),
      ...userTurn('t1', 'first'),
      tokenCount({ total_token_usage: tokens(100, 10, 40), last_token_usage: tokens(100, 10, 40), model_context_window: 272000 }),
      ...userTurn('t2', 'second'),
      tokenCount({ total_token_usage: tokens(250, 30, 90, 5), last_token_usage: tokens(150, 20, 50, 5), model_context_window: 272000 }),
    ]);
    expect(result.tokenCount).toEqual({
      total_token_usage: { ...tokens(250, 30, 90, 5), cache_write_input_tokens: 0 },
      last_token_usage: { ...tokens(150, 20, 50, 5), cache_write_input_tokens: 0 },
      model_context_window: 272000,
    });
    expect(replay([header, tokenCount(null)]).tokenCount).toBeUndefined();
  });

  it('passes over a malformed token_count, keeping the total before it', () => {
    const valid = { total_token_usage: tokens(100, 10), last_token_usage: tokens(100, 10), model_context_window: null };
    const result = replay([
      header,
      tokenCount(valid),
      tokenCount({ total_token_usage: 'lots', last_token_usage: tokens(1, 1) }),
      tokenCount({ last_token_usage: tokens(1, 1) }),
      tokenCount(42),
      tokenCount(null),
    ]);
    expect(result.tokenCount?.total_token_usage.total_tokens).toBe(110);
    // A count that is missing or not a count reads as 0 rather than losing the whole total.
    const lenient = replay([header, tokenCount({ total_token_usage: { input_tokens: 7, output_tokens: 'x' }, last_token_usage: {} })]);
    expect(lenient.tokenCount?.total_token_usage).toEqual({ input_tokens: 7, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 });
  });

  it('takes a turn context recorded before any turn (with injected items) as the baseline, not as a turn', () => {
    const result = replay([header, item(environmentContext('/workspace')), turnContext('opening'), item(userMessage('injected'))]);
    expect(result.turns).toEqual([]);
    expect(result.referenceTurnContext?.turn_id).toBe('opening');
    expect(texts(result.history)).toEqual([expect.stringContaining('<environment_context>'), 'injected']);
    const later = replay([header, item(environmentContext('/workspace')), turnContext('opening'), item(userMessage('injected')), ...userTurn('t1', 'first')]);
    expect(later.turns.map((turn) => [turn.turnId, turn.status, turn.userTurn])).toEqual([['t1', 'completed', true]]);
    expect(later.referenceTurnContext?.turn_id).toBe('t1');
  });

  it('rebuilds the history, the turns and the last turn context', () => {
    const result = replay([
      header,
      item(environmentContext('/workspace')),
      ...userTurn('t1', 'first', functionCall('c1'), functionCallOutput('c1', 'hi'), assistantMessage('done')),
      ...userTurn('t2', 'second', assistantMessage('again')),
    ]);
    expect(result.meta?.id).toBe(ID);
    expect(texts(result.history)).toEqual(['<environment_context>\n  <cwd>/workspace</cwd>\n</environment_context>', 'first', 'function_call', 'function_call_output', 'done', 'second', 'again']);
    expect(result.turns.map((turn) => [turn.turnId, turn.status, turn.userTurn])).toEqual([['t1', 'completed', true], ['t2', 'completed', true]]);
    expect(result.lastTurnContext?.turn_id).toBe('t2');
    expect(result.referenceTurnContext?.turn_id).toBe('t2');
    expect(result.lastOrdinal).toBe(13);
  });

  it('marks a turn without its completion as incomplete, and an aborted one as aborted', () => {
    const result = replay([
      header,
      taskStarted('t1'),
      turnContext('t1'),
      item(userMessage('stop me')),
      { type: 'event_msg', payload: { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' } },
      taskStarted('t2'),
      turnContext('t2'),
      item(userMessage('crash')),
    ]);
    expect(result.turns.map((turn) => turn.status)).toEqual(['aborted', 'incomplete']);
  });

  it('replaces the history with a compaction replacement history', () => {
    const replacement = [userMessage('first'), { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'SUMMARY' }], internal_chat_message_metadata_passthrough: { content_item_kinds: ['compaction.summary'] } }];
    const result = replay([
      header,
      ...userTurn('t1', 'first', assistantMessage('long answer')),
      taskStarted('t2'),
      { type: 'compacted', payload: { message: 'SUMMARY', replacement_history: replacement, window_number: 1, window_id: WINDOW } },
      item(userMessage('second')),
      item(assistantMessage('short')),
      taskComplete('t2'),
    ]);
    expect(texts(result.history)).toEqual(['first', 'SUMMARY', 'second', 'short']);
    expect(result.compactions).toBe(1);
    expect(result.window).toEqual({ windowNumber: 1, windowId: WINDOW });
    expect(result.needsInitialContext).toBe(false);
    // The compaction came after the last turn context: the baseline is gone.
    expect(result.lastTurnContext?.turn_id).toBe('t1');
    expect(result.referenceTurnContext).toBeUndefined();
  });

  it('restores the baseline when a turn context follows the compaction', () => {
    const result = replay([
      header,
      ...userTurn('t1', 'first'),
      taskStarted('t2'),
      { type: 'compacted', payload: { message: 'S', replacement_history: [] } },
      turnContext('t2'),
      taskComplete('t2'),
    ]);
    expect(result.referenceTurnContext?.turn_id).toBe('t2');
  });

  it('rebuilds a legacy compaction without replacement history from the user messages and the summary', () => {
    const result = replay([
      header,
      item(environmentContext('/w')),
      ...userTurn('t1', 'first', assistantMessage('answer')),
      { type: 'compacted', payload: { message: 'the summary', window_id: 4 } },
    ]);
    expect(texts(result.history)).toEqual(['first', 'the summary']);
    expect(result.needsInitialContext).toBe(true);
    expect(result.window).toEqual({ windowNumber: 4 });
  });

  it('drops rolled-back user turns from the history and the turn list', () => {
    const result = replay([
      header,
      item(environmentContext('/w')),
      ...userTurn('t1', 'one', assistantMessage('a1')),
      ...userTurn('t2', 'two', assistantMessage('a2')),
      ...userTurn('t3', 'three', assistantMessage('a3')),
      rolledBack(2),
      ...userTurn('t4', 'four', assistantMessage('a4')),
    ]);
    expect(texts(result.history).slice(1)).toEqual(['one', 'a1', 'four', 'a4']);
    expect(result.turns.map((turn) => turn.turnId)).toEqual(['t1', 't4']);
    expect(result.lastTurnContext?.turn_id).toBe('t4');
  });

  it('points the last turn context at the newest surviving turn after a rollback', () => {
    const result = replay([header, ...userTurn('t1', 'one'), ...userTurn('t2', 'two'), rolledBack(1)]);
    expect(result.lastTurnContext?.turn_id).toBe('t1');
    expect(result.turns).toHaveLength(1);
  });

  it('keeps the initial context when more turns are rolled back than exist', () => {
    const result = replay([header, item(environmentContext('/w')), ...userTurn('t1', 'one'), rolledBack(5)]);
    expect(result.history).toHaveLength(1);
    expect(result.turns).toEqual([]);
    expect(result.lastTurnContext).toBeUndefined();
  });

  it('reads legacy files whose turns have no lifecycle events', () => {
    const result = replay([
      header,
      turnContext(undefined),
      { type: 'event_msg', payload: { type: 'user_message', message: 'one' } },
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] }),
      item(assistantMessage('a1')),
      turnContext(undefined),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] }),
      rolledBack(1),
    ]);
    expect(texts(result.history)).toEqual(['one', 'a1']);
    expect(result.turns).toHaveLength(1);
    expect(result.turns[0]).toMatchObject({ userTurn: true, status: 'incomplete' });
  });

  it('turns inter-agent messages into agent_message history items that open turns', () => {
    const result = replay([
      header,
      { type: 'inter_agent_communication', payload: { author: '/root', recipient: '/root/worker', content: 'task', trigger_turn: true } },
      item(assistantMessage('ok')),
      rolledBack(1),
    ]);
    expect(result.history).toEqual([]);
  });

  it('passes over lines of unknown types and remembers the thread name', () => {
    const result = replay([
      header,
      { type: 'spine_transition', payload: { x: 1 } },
      { type: 'event_msg', payload: { type: 'thread_name_updated', thread_name: 'My thread' } },
      ...userTurn('t1', 'one'),
    ]);
    expect(result.threadName).toBe('My thread');
    expect(texts(result.history)).toEqual(['one']);
  });
});

describe('dropLastUserTurns', () => {
  it('cuts at the n-th newest user turn', () => {
    const history = [environmentContext('/w'), userMessage('a'), assistantMessage('1'), userMessage('b'), assistantMessage('2')];
    expect(texts(dropLastUserTurns(history, 1))).toEqual(['<environment_context>\n  <cwd>/w</cwd>\n</environment_context>', 'a', '1']);
    expect(dropLastUserTurns(history, 0)).toEqual(history);
  });

  it("counts only the user's messages as turns when it knows an extension's fragment definition (issue 14)", () => {
    const TODO_LIST = defineContextFragment({ kind: 'todo.list', role: 'user', open: '<todo_list>', close: '</todo_list>' });
    const todo = (body: string): ResponseItem => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: TODO_LIST.render(body).text }] });
    const history = [environmentContext('/w'), todo('one'), userMessage('a'), assistantMessage('1'), todo('two'), userMessage('b'), assistantMessage('2')];
    // Two turns back is everything from the user's first message on; the fragment is no turn of its own.
    expect(texts(dropLastUserTurns(history, 2, [...BUILT_IN_CONTEXT_FRAGMENTS, TODO_LIST]))).toEqual([
      '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>',
      '<todo_list>\none\n</todo_list>',
    ]);
  });

  it('rebuilds extension stores from their changes in order: sets replace, deletes remove', () => {
    const result = replay([
      header,
      extensionState('notes', 'list', ['a']),
      extensionState('todo', 'open', 2),
      extensionState('notes', 'gone', true),
      ...userTurn('t1', 'hi'),
      extensionState('notes', 'list', ['a', 'b']),
      extensionState('notes', 'gone'),
    ]);
    expect(result.extensionState).toEqual([
      { extensionId: 'notes', key: 'list', value: ['a', 'b'] },
      { extensionId: 'todo', key: 'open', value: 2 },
    ]);
  });

  it('undoes the extension-state changes of rolled-back turns, keeping those made before them', () => {
    const [started, context, message, complete] = userTurn('t2', 'second');
    const result = replay([
      header,
      extensionState('notes', 'before', 0),
      ...userTurn('t1', 'first'),
      extensionState('notes', 'list', ['t1']),
      started!,
      context!,
      message!,
      extensionState('notes', 'list', ['t1', 't2']),
      extensionState('notes', 'before'),
      complete!,
      // Set after t2 ended (a stop hook, say): still after the rolled-back turn began, so undone too.
      extensionState('notes', 'after', true),
      rolledBack(1),
      ...userTurn('t3', 'third'),
      extensionState('notes', 't3', 3),
    ]);
    expect(result.turns.map((turn) => turn.turnId)).toEqual(['t1', 't3']);
    expect(result.extensionState).toEqual([
      { extensionId: 'notes', key: 'before', value: 0 },
      { extensionId: 'notes', key: 'list', value: ['t1'] },
      { extensionId: 'notes', key: 't3', value: 3 },
    ]);
    // Rolling back more turns than there are keeps what was set before the first one.
    expect(replay([header, extensionState('notes', 'before', 0), ...userTurn('t1', 'first'), extensionState('notes', 'x', 1), rolledBack(5)]).extensionState).toEqual([
      { extensionId: 'notes', key: 'before', value: 0 },
    ]);
  });
});
