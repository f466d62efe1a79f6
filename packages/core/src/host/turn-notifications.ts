// Core's events as the v2 notifications an app-server client would receive for the same turn, in
// the same order and shapes (the app-server's LiveThread makes the same projection for sockets;
// both use wire/). Events that are not about `turnId` belong to no turn a host API caller holds.
import type { ThreadItem } from '@skein/protocol';
import type { CoreEvent } from '../turn/core-event.js';
import { eventNotification } from '../wire/event-notifications.js';
import { threadItem } from '../wire/thread-items.js';
import { turnErrorObject } from '../wire/turn-wire.js';
import type { TurnErrorInfo, TurnEvent } from './turn-event.js';

/** How a turn ended, when `event` ends it. */
export interface TurnEnding {
  readonly status: 'completed' | 'interrupted' | 'failed';
  readonly error: TurnErrorInfo | null;
}

/** The notifications `event` becomes for the turn `turnId` of thread `threadId`, and the ending it announces. */
export function turnNotifications(threadId: string, turnId: string, event: CoreEvent, nowMs: () => number): { readonly events: readonly TurnEvent[]; readonly ending?: TurnEnding } {
  if ('turnId' in event && event.turnId !== null && event.turnId !== turnId) return { events: [] };
  const general = eventNotification(threadId, event);
  if (general !== undefined) return { events: [general as unknown as TurnEvent] };
  const scoped = { threadId, turnId };
  switch (event.type) {
    case 'turnItem': {
      const item = threadItem(event.item) as ThreadItem;
      if (event.phase === 'started') return { events: [{ method: 'item/started', params: { ...scoped, item, startedAtMs: event.item.startedAtMs } }] };
      return { events: [{ method: 'item/completed', params: { ...scoped, item, completedAtMs: event.item.completedAtMs ?? nowMs() } }] };
    }
    case 'agentMessageDelta':
      return { events: [{ method: 'item/agentMessage/delta', params: { ...scoped, itemId: event.itemId, delta: event.delta } }] };
    case 'turnItemOutputDelta':
      return { events: [{ method: 'item/commandExecution/outputDelta', params: { ...scoped, itemId: event.itemId, delta: event.delta } }] };
    case 'turnDiffUpdated':
      return { events: [{ method: 'turn/diff/updated', params: { ...scoped, diff: event.diff } }] };
    case 'threadTokenUsage':
      return { events: [{ method: 'thread/tokenUsage/updated', params: { ...scoped, tokenUsage: { total: event.total, last: event.last, modelContextWindow: event.modelContextWindow } } }] };
    case 'turnCompleted':
      return { events: [], ending: { status: 'completed', error: null } };
    case 'turnAborted':
      return { events: [], ending: { status: 'interrupted', error: event.error === undefined ? null : (turnErrorObject(event.error) as unknown as TurnErrorInfo) } };
    case 'turnFailed': {
      const error = turnErrorObject(event.error) as unknown as TurnErrorInfo;
      return { events: [{ method: 'error', params: { ...scoped, willRetry: false, error } }], ending: { status: 'failed', error } };
    }
    default:
      return { events: [] };
  }
}
