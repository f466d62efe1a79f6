// What `thread/resume` adds beside the thread and its settings, as Codex 0.171.0 answers it: the
// collaboration mode the thread runs in, and cursors a client that resumed without the full history
// (`excludeTurns`) pages backwards from: each opens a newest-first page of `thread/turns/list` or
// `thread/items/list` that starts with the thread's last turn or item.
import type { WireObject } from '@skein/core';
import { historyCursor } from './history-page.js';

/** `collaborationMode`, `turnsBackwardsCursor` and `itemsBackwardsCursor` of a resumed thread whose recorded turns are `turns`. */
export function resumeExtras(threadId: string, response: WireObject, turns: readonly WireObject[]): WireObject {
  const lastTurn = turns.at(-1);
  const lastItem = turns.flatMap((turn) => (Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : [])).at(-1);
  return {
    // Skein runs every thread in the default mode; its settings are the thread's own.
    collaborationMode: { mode: 'default', settings: { model: response['model'], reasoning_effort: response['reasoningEffort'] ?? null, developer_instructions: null } },
    turnsBackwardsCursor: lastTurn === undefined ? null : historyCursor(threadId, String(lastTurn['id']), true),
    itemsBackwardsCursor: lastItem === undefined ? null : historyCursor(threadId, String(lastItem['id']), true),
  };
}
