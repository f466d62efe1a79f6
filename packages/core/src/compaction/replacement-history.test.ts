import type { ResponseItem } from '@skein/protocol';
import { BUILT_IN_CONTEXT_FRAGMENTS } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { HANDOFF_SUMMARY_PREFIX, handoffSummaryMessage } from './handoff-summary.js';
import { buildReplacementHistory } from './replacement-history.js';

let counter = 0;
const uuid = () => `0190c0de-0000-7000-8000-${String(++counter).padStart(12, '0')}`;
const user = (text: string, id?: string): ResponseItem => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }], ...(id === undefined ? {} : { id }) });
const texts = (items: readonly ResponseItem[]) => items.map((item) => (item as { content: { text: string }[] }).content.map((part) => part.text).join(''));
const base = { contextFragments: BUILT_IN_CONTEXT_FRAGMENTS, turnId: 'turn-9', uuid };

describe('buildReplacementHistory', () => {
  it('keeps the context and the user prompts, drops the model and tool traffic, and ends with the summary', () => {
    const history: ResponseItem[] = [
      { type: 'message', role: 'developer', id: 'msg_old_context', content: [{ type: 'input_text', text: 'old permissions' }] },
      user('first', 'msg_first'),
      { type: 'message', role: 'assistant', id: 'msg_answer', content: [{ type: 'output_text', text: 'an answer' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'lookup', arguments: '{}' },
      { type: 'function_call_output', id: 'fco_1', call_id: 'c1', output: 'found' },
      user('second', 'msg_second'),
    ];
    const context: ResponseItem[] = [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'fresh permissions' }] }];
    const replacement = buildReplacementHistory({ ...base, context, history, summary: 'the summary' });
    expect(texts(replacement)).toEqual(['fresh permissions', 'first', 'second', `${HANDOFF_SUMMARY_PREFIX}\nthe summary`]);
    // Kept prompts keep their ids; new items get one (and the compaction's turn).
    expect(replacement.slice(1, 3).map((item) => item.id)).toEqual(['msg_first', 'msg_second']);
    for (const item of [replacement[0]!, replacement[3]!]) {
      expect(item.id).toMatch(/^msg_/);
      expect(item.metadata).toMatchObject({ turn_id: 'turn-9' });
    }
  });

  it('replaces an earlier window summary rather than keeping it as a prompt', () => {
    const history = [user('first', 'msg_first'), { ...handoffSummaryMessage('old summary'), id: 'msg_old_summary' }, user('second', 'msg_second')];
    const replacement = buildReplacementHistory({ ...base, context: [], history, summary: 'new summary' });
    expect(texts(replacement)).toEqual(['first', 'second', `${HANDOFF_SUMMARY_PREFIX}\nnew summary`]);
  });

  it('keeps the newest prompts within the bound and cuts the oldest kept one in the middle', () => {
    const history = [user('a'.repeat(4_000), 'msg_a'), user('b'.repeat(400), 'msg_b'), user('c'.repeat(400), 'msg_c')];
    // 250 tokens: c (100) and b (100) whole, then 50 tokens of a.
    const replacement = buildReplacementHistory({ ...base, context: [], history, summary: 's', maxUserPromptTokens: 250 });
    const kept = texts(replacement).slice(0, -1);
    expect(kept.slice(1)).toEqual(['b'.repeat(400), 'c'.repeat(400)]);
    expect(kept[0]!.length).toBeLessThan(400);
    expect(kept[0]).toMatch(/^a+.*a+$/s);
    expect(replacement[0]!.id).toBe('msg_a');
  });

  it('between two samplings puts the context just before the newest prompt, which stays last before the summary', () => {
    const context: ResponseItem[] = [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'context' }] }];
    const history = [user('first', 'msg_first'), user('second', 'msg_second')];
    const replacement = buildReplacementHistory({ ...base, context, contextPlacement: 'beforeLastPrompt', history, summary: 's' });
    expect(texts(replacement)).toEqual(['first', 'context', 'second', `${HANDOFF_SUMMARY_PREFIX}\ns`]);
  });
});
