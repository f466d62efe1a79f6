// `<hook_prompt hook_run_id="…">…</hook_prompt>`: what a hook that blocked the end of a turn tells
// the model, sent as a user message so the model goes on (Codex 0.171.0's form, probed). Clients
// see it as a `hookPrompt` item, not as the user's words.
import { defineContextFragment } from './context-fragment.js';

/** The fragment, so history tells a hook's prompt from the user's. */
export const HOOK_PROMPT_FRAGMENT = defineContextFragment({
  kind: 'hooks.hook_prompt',
  role: 'user',
  open: '<hook_prompt',
  close: '</hook_prompt>',
  separator: '',
});

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const unescape = (text: string) => text.replaceAll('&quot;', '"').replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&amp;', '&');

/** The message text for `text` from the hook run `runId`. */
export function hookPromptText(runId: string, text: string): string {
  return `<hook_prompt hook_run_id="${escape(runId)}">${escape(text)}</hook_prompt>`;
}

/** The run id and text of a hook prompt message, if `text` is one. */
export function parseHookPrompt(text: string): { readonly runId: string; readonly text: string } | undefined {
  const match = /^<hook_prompt hook_run_id="([^"]*)">([\s\S]*)<\/hook_prompt>$/.exec(text.trim());
  return match === null ? undefined : { runId: unescape(match[1]!), text: unescape(match[2]!) };
}
