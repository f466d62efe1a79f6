// Reverting a thread (`thread/revert`): the turns from one on leave the history (a `thread_rolled_back`
// line, as Codex's rollback writes it) and, where checkpoints were taken, every environment's files go
// back to their state before that turn. The restore is a turn of its own holding one file-change item
// per environment, so clients see it and a resume shows it; what could not be restored is a warning.
import type { TurnRecord } from '@skein/rollout';
import type { EnvironmentRestore, ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import { ThreadSessionError, type TurnSlot } from './active-turn.js';
import type { ThreadRecorder } from './thread-recorder.js';

/** What the client asked of a revert. */
export interface RevertOptions {
  /** Put the files back as well (default true); false drops only the history, as Codex does. */
  readonly restoreFiles?: boolean | undefined;
  /** Overwrite files changed since the turn that wrote them (default false: they are reported and kept). */
  readonly force?: boolean | undefined;
}

/** What a revert did. */
export interface RevertResult {
  /** The turns dropped from the history, oldest first. */
  readonly droppedTurnIds: readonly string[];
  /** Each environment's restore; empty when no dropped turn had a checkpoint or files were not asked for. */
  readonly restores: readonly EnvironmentRestore[];
  /** The turn that reported the restore to clients, when there was one. */
  readonly restoreTurnId: string | undefined;
}

/** What a revert works with. */
export interface ThreadRevertDeps {
  readonly slot: TurnSlot;
  readonly recorder: ThreadRecorder;
  readonly checkpoints: ThreadCheckpoints;
  /** The thread's surviving recorded turns, oldest first; undefined for an ephemeral thread. */
  readonly recordedTurns: (() => Promise<readonly TurnRecord[]>) | undefined;
  readonly newCallId: () => string;
  /** Puts what the file now holds back into the session (its history, its stores). */
  readonly reload: (() => Promise<void>) | undefined;
}

/**
 * Drops `beforeTurnId` and every later turn, and restores their files. The thread is held the whole
 * time (no turn can start); the host reloads the thread afterwards so its memory matches the file.
 */
export async function revertThread(deps: ThreadRevertDeps, beforeTurnId: string, options: RevertOptions = {}): Promise<RevertResult> {
  const { slot, recorder, checkpoints } = deps;
  if (deps.recordedTurns === undefined) throw new ThreadSessionError('NotRecorded', 'an ephemeral thread keeps no history to revert');
  const active = slot.begin();
  try {
    await recorder.flush();
    const turns = await deps.recordedTurns();
    const index = turns.findIndex((turn) => turn.turnId === beforeTurnId);
    if (index < 0) throw new ThreadSessionError('TurnNotFound', `turn not found: ${beforeTurnId}`);
    const dropped = turns.slice(index);
    // A rollback counts the user's turns back from the end, so it can stop only at one.
    if (!(dropped[0] as TurnRecord).userTurn) {
      const start = turns.slice(0, index).findLast((turn) => turn.userTurn)?.turnId;
      throw new ThreadSessionError('TurnNotFound', `turn ${beforeTurnId} has no user message to revert to${start === undefined ? '' : `; revert before ${start}, the user turn it follows`}`);
    }
    const droppedTurnIds = dropped.flatMap((turn) => (turn.turnId === undefined ? [] : [turn.turnId]));
    // Without the files, the dropped turns' checkpoints go all the same: nothing would ever restore them.
    const restores = options.restoreFiles === false ? await checkpoints.forget(droppedTurnIds).then(() => []) : await checkpoints.restore(droppedTurnIds, { force: options.force === true });
    slot.emit({ type: 'threadRolledBack', numTurns: dropped.filter((turn) => turn.userTurn).length });
    const reported = restores.filter((restore) => restore.restored.length > 0 || restore.conflicts.length > 0 || restore.failed.length > 0 || restore.error !== undefined);
    if (reported.length > 0) reportAsTurn(slot, active.turnId, reported, deps.newCallId);
    await recorder.flush();
    await deps.reload?.();
    return { droppedTurnIds, restores, restoreTurnId: reported.length > 0 ? active.turnId : undefined };
  } finally {
    slot.end(active);
  }
}

/** The restore as a turn: a file-change item per environment, a warning for what was kept or failed. */
function reportAsTurn(slot: TurnSlot, turnId: string, restores: readonly EnvironmentRestore[], newCallId: () => string): void {
  slot.emit({ type: 'turnStarted', turnId });
  for (const restore of restores) {
    const kept = restore.conflicts.length === 0 ? '' : `; kept ${restore.conflicts.length} changed since: ${restore.conflicts.join(', ')}`;
    const failed = restore.failed.length === 0 ? '' : `; could not write ${restore.failed.join(', ')}`;
    const output = restore.error === undefined ? `Restored ${restore.restored.length} file(s) on '${restore.environmentId}'${kept}${failed}\n` : `Could not restore the files on '${restore.environmentId}': ${restore.error}\n`;
    slot.emit({
      type: 'patchApplied',
      turnId,
      callId: newCallId(),
      success: restore.error === undefined && restore.failed.length === 0,
      output,
      changes: restore.restored.map((file) => ({ path: file.path, kind: file.kind, diff: file.diff })),
    });
    if (restore.error !== undefined || kept !== '' || failed !== '') slot.emit({ type: 'warning', message: output.trim() + (kept === '' ? '' : ' (revert with force to overwrite them)') });
  }
  slot.emit({ type: 'turnCompleted', turnId, lastAgentMessage: undefined });
}
