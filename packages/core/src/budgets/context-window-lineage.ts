// The lineage block the token budget adds to a window's full context: which window this is, the
// thread's first, and the one it replaced. Codex's form: one developer message whose three content
// parts are the open marker, the labelled lines, and the close marker; `Previous` only after the first.
import { CONTEXT_WINDOW_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { ContextWindow } from '../compaction/context-window.js';

/** The agent path of a thread with no parent, as the turn metadata names it. */
export const ROOT_AGENT_NAME = '/root';

/** The lineage message of `window`. */
export function contextWindowLineage(window: ContextWindow, agentName: string = ROOT_AGENT_NAME): ResponseItem {
  const lines = [
    `Agent name: ${agentName}`,
    `First context window id: ${window.firstWindowId}`,
    `Current context window id: ${window.windowId}`,
    ...(window.previousWindowId === undefined ? [] : [`Previous context window id: ${window.previousWindowId}`]),
  ];
  const text = (value: string) => ({ type: 'input_text' as const, text: value });
  return {
    type: 'message',
    role: 'developer',
    content: [text(CONTEXT_WINDOW_FRAGMENT.open), text(`\n${lines.join('\n')}\n`), text(CONTEXT_WINDOW_FRAGMENT.close)],
  };
}
