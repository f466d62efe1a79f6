// The lineage block the token budget adds to a window's full context: the thread, its first window,
// this one, and the one it replaced (`Previous` only after the first). As the issue asks, plain
// colon-labelled lines in one developer message, no wrapper tags; Codex 0.171.0 wraps the same
// lines in `<context_window>` with an `Agent name:` line instead of the thread id.
import type { ResponseItem } from '@skein/protocol';
import type { ContextWindow } from '../compaction/context-window.js';

/** The lineage message of `window` in thread `threadId`. */
export function contextWindowLineage(threadId: string, window: ContextWindow): ResponseItem {
  const lines = [
    `Thread id: ${threadId}`,
    `First context window id: ${window.firstWindowId}`,
    `Current context window id: ${window.windowId}`,
    ...(window.previousWindowId === undefined ? [] : [`Previous context window id: ${window.previousWindowId}`]),
  ];
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text: lines.join('\n') }] };
}
