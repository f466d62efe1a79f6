// A recorded thread's turns as clients read them (`thread/read {includeTurns}`, fork and resume):
// each surviving turn with the user's messages and the agent's answers, grouped by the turn id core
// tags every recorded item with.
import type { ResponseItem } from '@skein/protocol';
import { isUserTurnBoundary, userMessageText, type LoadedThread } from '@skein/rollout';
import { agentMessageItem, type WireObject } from './thread-items.js';

const turnIdOf = (item: ResponseItem): string | undefined => {
  const metadata = (item as { metadata?: { turn_id?: unknown } }).metadata;
  return typeof metadata?.turn_id === 'string' ? metadata.turn_id : undefined;
};

/** The turns of a loaded rollout, oldest first. */
export function recordedTurns(loaded: LoadedThread): WireObject[] {
  const byTurn = new Map<string, ResponseItem[]>();
  for (const item of loaded.history) {
    const turnId = turnIdOf(item);
    if (turnId === undefined) continue;
    const items = byTurn.get(turnId) ?? [];
    items.push(item);
    byTurn.set(turnId, items);
  }
  return loaded.turns.flatMap((turn): WireObject[] => {
    if (turn.turnId === undefined) return [];
    const items = (byTurn.get(turn.turnId) ?? []).flatMap((item): WireObject[] => threadItemsOf(item));
    return [
      {
        id: turn.turnId,
        rootTurnId: turn.turnId,
        items,
        itemsView: 'full',
        status: turn.status === 'completed' ? 'completed' : turn.status === 'aborted' ? 'interrupted' : 'inProgress',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
    ];
  });
}

function threadItemsOf(item: ResponseItem): WireObject[] {
  if (isUserTurnBoundary(item) && item.type === 'message') {
    return [{ type: 'userMessage', id: item.id ?? '', clientId: null, content: [{ type: 'text', text: userMessageText(item) ?? '', text_elements: [] }] }];
  }
  if (item.type === 'message' && (item as { role?: unknown }).role === 'assistant') {
    const { startedAtMs: _started, completedAtMs: _completed, ...rest } = agentMessageItem(item, userMessageText(item) ?? '', 0, null);
    return [rest];
  }
  return [];
}

/** The first thing the user said, for `preview`. */
export function previewOf(loaded: LoadedThread): string {
  const first = loaded.history.find((item) => isUserTurnBoundary(item));
  return first === undefined ? '' : (userMessageText(first) ?? '');
}
