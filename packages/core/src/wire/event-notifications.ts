// The core events that become a notification of their own, whatever turn the thread is in:
// progress, retries, warnings, safety buffering, hook runs, MCP server starts and the thread's goal. The rest need the thread's
// turn state and are LiveThread's.
import type { CoreEvent } from '../turn/core-event.js';

/** A notification to send; `afterAnswer` when it must follow the answer to the request that caused it. */
export interface EventNotification {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly afterAnswer: boolean;
}

/** The notification `event` becomes on thread `threadId`, if it is one of these. */
export function eventNotification(threadId: string, event: CoreEvent): EventNotification | undefined {
  const now = (method: string, params: Record<string, unknown>): EventNotification => ({ method, params, afterAnswer: false });
  switch (event.type) {
    case 'reasoningSummaryDelta':
      return now('item/reasoning/summaryTextDelta', { threadId, turnId: event.turnId, itemId: event.itemId, delta: event.delta, summaryIndex: 0 });
    case 'streamRetrying':
      return now('error', { threadId, turnId: event.turnId, willRetry: true, error: { message: `${event.reason}; retrying (attempt ${event.attempt})`, codexErrorInfo: null, additionalDetails: null } });
    case 'warning':
      return now('warning', { threadId, message: event.message });
    case 'hookRun':
      return now(event.phase === 'started' ? 'hook/started' : 'hook/completed', { threadId, turnId: event.turnId, run: event.run });
    case 'safetyBuffering':
      // Codex always shows its buffering UI for the notice (0.171.0, probed; the enabling header changes nothing).
      return now('model/safetyBuffering/updated', {
        threadId,
        turnId: event.turnId,
        model: event.model,
        useCases: event.useCases,
        reasons: event.reasons,
        showBufferingUi: true,
        fasterModel: event.fasterModel ?? null,
      });
    case 'mcpToolCallProgress':
      return now('item/mcpToolCall/progress', { threadId, turnId: event.turnId, itemId: event.itemId, message: event.message });
    case 'mcpServerStatus':
      return now('mcpServer/startupStatus/updated', { threadId, name: event.name, environmentId: null, status: event.status, error: event.error, failureReason: null });
    // A client's change (no turn) is announced after its answer, as Codex orders them.
    case 'goalUpdated':
      return { method: 'thread/goal/updated', params: { threadId, turnId: event.turnId, goal: event.goal }, afterAnswer: event.turnId === null };
    case 'goalCleared':
      return { method: 'thread/goal/cleared', params: { threadId }, afterAnswer: true };
    default:
      return undefined;
  }
}
