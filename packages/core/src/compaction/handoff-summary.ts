// The words of a local compaction: what the model is asked for, and how its answer is introduced to
// the model of the next context window. Our wording; Codex's is not reproduced.
import type { ResponseItem } from '@skein/protocol';

/** The user message appended to the history in a compaction request. */
export const HANDOFF_SUMMARY_REQUEST = [
  'Your context window is nearly full, so the conversation so far will be replaced by a summary you write now.',
  'Write a handoff for the engineer who continues this work without seeing anything above: the goal and the',
  "user's constraints, what has been done (files touched, commands run and what they showed), decisions and",
  'their reasons, what is still open or failing, and the next concrete steps. Be specific and brief; do not call tools.',
].join(' ');

/** Opens the summary message of a new context window, so the model reads it as a handoff, not as the user's words. */
export const HANDOFF_SUMMARY_PREFIX =
  'This conversation continues from an earlier context window that was compacted. The handoff summary written at the end of that window follows; treat it as your own notes and carry on from there.';

/** The user message that asks for the summary. */
export function handoffSummaryRequest(): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: HANDOFF_SUMMARY_REQUEST }] };
}

/** The text of the message that carries the summary into the next window (the `compacted` line's `message`). */
export function handoffSummaryText(summary: string): string {
  return `${HANDOFF_SUMMARY_PREFIX}\n${summary}`;
}

/** The user message that carries the summary into the next window. */
export function handoffSummaryMessage(summary: string): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: handoffSummaryText(summary) }] };
}

/** Whether a message is an earlier window's summary (a later compaction replaces it rather than keeping it as a prompt). */
export function isHandoffSummary(item: ResponseItem): boolean {
  if (item.type !== 'message') return false;
  const content = (item as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  const first = content[0] as { text?: unknown } | undefined;
  return typeof first?.text === 'string' && first.text.startsWith(HANDOFF_SUMMARY_PREFIX);
}
