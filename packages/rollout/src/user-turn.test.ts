// Telling user turns from context messages: Codex's labels first, then the fragment definitions.
import { BUILT_IN_CONTEXT_FRAGMENTS, defineContextFragment } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { isUserTurnBoundary, userMessageText } from './user-turn.js';

const TODO_LIST = defineContextFragment({ kind: 'todo.list', role: 'user', open: '<todo_list>', close: '</todo_list>' });

const message = (role: string, text: string, kinds?: string[]) => ({
  type: 'message',
  role,
  content: [{ type: 'input_text', text }],
  ...(kinds === undefined ? {} : { internal_chat_message_metadata_passthrough: { content_item_kinds: kinds } }),
}) as never;

describe('isUserTurnBoundary', () => {
  it('follows Codex 0.171.0 content kinds', () => {
    expect(isUserTurnBoundary(message('user', 'hi', ['user.text']))).toBe(true);
    expect(isUserTurnBoundary(message('user', 'whatever', ['environments.environment_context']))).toBe(false);
    expect(isUserTurnBoundary(message('user', 'SUMMARY', ['compaction.summary']))).toBe(false);
  });

  it('reads unlabelled messages of older files by their opening tag', () => {
    expect(isUserTurnBoundary(message('user', 'Fix the bug'))).toBe(true);
    expect(isUserTurnBoundary(message('user', '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>'))).toBe(false);
    expect(isUserTurnBoundary(message('user', '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x</INSTRUCTIONS>'))).toBe(false);
    expect(isUserTurnBoundary(message('user', '<turn_aborted>\n</turn_aborted>'))).toBe(false);
  });

  it('takes an older thread\'s <token_budget> message for context, not for a prompt (issue 16)', () => {
    expect(isUserTurnBoundary(message('user', '<token_budget>\nContext left: 4000 tokens.\n</token_budget>'))).toBe(false);
  });

  it('counts inter-agent messages and ignores other roles and items', () => {
    expect(isUserTurnBoundary({ type: 'agent_message', author: 'a', recipient: 'b', content: [] })).toBe(true);
    expect(isUserTurnBoundary(message('assistant', 'hi'))).toBe(false);
    expect(isUserTurnBoundary(message('developer', 'hi'))).toBe(false);
    expect(isUserTurnBoundary({ type: 'function_call', name: 'x', arguments: '{}', call_id: 'c' })).toBe(false);
  });

  it('takes a fragment of a definition it is given for context, and only then (issue 14)', () => {
    const todo = message('user', TODO_LIST.render('- [ ] ship it').text);
    expect(isUserTurnBoundary(todo)).toBe(true);
    expect(isUserTurnBoundary(todo, [...BUILT_IN_CONTEXT_FRAGMENTS, TODO_LIST])).toBe(false);
  });

  it('is context only when every text part is a fragment: a prompt beside one is still the user\'s', () => {
    const parts = (...texts: string[]) => ({ type: 'message', role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) }) as never;
    expect(isUserTurnBoundary(parts('# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x</INSTRUCTIONS>', '<environment_context>\n</environment_context>'))).toBe(false);
    expect(isUserTurnBoundary(parts('<environment_context>\n</environment_context>', 'Fix the bug'))).toBe(true);
    expect(isUserTurnBoundary(parts('<skill> is a tag I like'))).toBe(true);
  });

  it('joins a message text', () => {
    expect(userMessageText({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'u' }, { type: 'input_text', text: 'b' }] })).toBe('a\nb');
    expect(userMessageText({ type: 'function_call', name: 'x', arguments: '{}', call_id: 'c' })).toBeUndefined();
    // The texts that frame a local image are the harness's, not the user's; a message of images alone opens a turn.
    const framed = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<image name=[Image #1] path="a.png">' }, { type: 'input_image', image_url: 'u' }, { type: 'input_text', text: '</image>' }] } as const;
    expect(userMessageText({ ...framed, content: [...framed.content, { type: 'input_text', text: 'what is it' }] })).toBe('what is it');
    expect(userMessageText(framed)).toBeUndefined();
    expect(isUserTurnBoundary(framed)).toBe(true);
  });
});
