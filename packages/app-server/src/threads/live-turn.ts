// A loaded thread's running turn as the app-server keeps it, and its v2 wire object.
import type { UserInput } from '@skein/protocol';
import type { TurnPresentation } from './thread-host.js';
import type { ResponsesServiceTier, WireObject } from '@skein/core';

/** How `LiveThread.startTurn` runs a turn. */
export interface StartTurnOptions {
  readonly turnId: string;
  readonly outputSchema?: unknown;
  readonly clientUserMessageId?: string | null | undefined;
  readonly serviceTier?: ResponsesServiceTier | undefined;
  readonly presentation?: TurnPresentation | undefined;
  /** The client's `responsesapiClientMetadata`, for the turn's metadata. */
  readonly clientMetadata?: Readonly<Record<string, string>> | null | undefined;
  /** Why the turn runs when no client asked for it (`realtime` for a realtime handoff). */
  readonly turnTrigger?: string | undefined;
}

/** The turn a LiveThread is running. */
export interface ActiveTurn {
  readonly id: string;
  readonly startedAtMs: number;
  /** Server requests withdrawn by an interrupt; resolved for clients when the turn ends (as Codex). */
  readonly openRequests: number[];
  lastAgentMessage: WireObject | undefined;
  /** The turn's diff as last sent (`turn/diff/updated`), sent once more as the turn ends, as Codex does. */
  lastDiff: string | undefined;
  /** A client's `turn/start`, as opposed to a turn core runs of its own (a manual compaction). */
  readonly userTurn: boolean;
  /** How the turn is shown when not as it runs (a review), and the answer it held back. */
  readonly presentation?: TurnPresentation | undefined;
  heldAnswer?: string | undefined;
}

/** The turn's v2 object: `inProgress` while it runs, its status, error and times once it ended. */
export function turnObject(
  turn: ActiveTurn,
  status: string,
  error: WireObject | null,
  completedAtMs: number | null,
  overrides: { readonly items?: readonly WireObject[]; readonly itemsView?: string; readonly startedAt?: null } = {},
): WireObject {
  return {
    id: turn.id,
    rootTurnId: turn.id,
    items: overrides.items ?? [],
    itemsView: overrides.itemsView ?? 'notLoaded',
    status,
    error,
    startedAt: overrides.startedAt === null ? null : Math.floor(turn.startedAtMs / 1000),
    completedAt: completedAtMs === null ? null : Math.floor(completedAtMs / 1000),
    durationMs: completedAtMs === null ? null : Math.round(completedAtMs - turn.startedAtMs),
  };
}

/** The text parts of a user's input, as a thread's preview. */
export function textOf(input: readonly UserInput[]): string {
  return input.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
