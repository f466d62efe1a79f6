// Which context window a thread is in. Window 0's id is the thread id (itself a UUIDv7), so it is the
// same on every resume without being recorded; each compaction opens the next window with a fresh
// UUIDv7 and remembers the first and the previous.
import type { UuidV7Source } from '@skein/protocol';

/** One context window of a thread. */
export interface ContextWindow {
  readonly windowNumber: number;
  readonly windowId: string;
  readonly firstWindowId: string;
  /** The window this one replaced; undefined in the first window. */
  readonly previousWindowId: string | undefined;
}

/** A thread's first window. */
export function firstContextWindow(threadId: string): ContextWindow {
  return { windowNumber: 0, windowId: threadId, firstWindowId: threadId, previousWindowId: undefined };
}

/** The window a compaction of `current` opens. */
export function nextContextWindow(current: ContextWindow, uuid: UuidV7Source): ContextWindow {
  return { windowNumber: current.windowNumber + 1, windowId: uuid(), firstWindowId: current.firstWindowId, previousWindowId: current.windowId };
}

/** The window a rollout's newest compaction opened (fields a file lacks fall back to what they must have been). */
export function restoredContextWindow(threadId: string, recorded: { readonly windowNumber?: number; readonly windowId?: string; readonly firstWindowId?: string; readonly previousWindowId?: string } | undefined, uuid: UuidV7Source): ContextWindow {
  if (recorded === undefined) return firstContextWindow(threadId);
  const windowNumber = recorded.windowNumber ?? 1;
  return {
    windowNumber,
    windowId: recorded.windowId ?? uuid(),
    firstWindowId: recorded.firstWindowId ?? threadId,
    previousWindowId: recorded.previousWindowId ?? (windowNumber === 1 ? threadId : undefined),
  };
}
