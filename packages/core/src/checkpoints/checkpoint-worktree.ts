// `thread/fork` into a worktree: the fork starts in a new git worktree holding the files as the source
// thread's checkpoints recorded them at the fork point, over the commit the user's HEAD was then, so
// the turn's changes show as changes and what was untracked stays untracked. This machine only.
import path from 'node:path';
import { CheckpointError } from './git-checkpoints.js';
import { localCheckpoints, localRecords, type CheckpointRecord, type HostCommands } from './thread-checkpoints.js';

/** The worktree a fork starts in. */
export interface ForkWorktree {
  /** The worktree's root (native). */
  readonly path: string;
  /** The fork's cwd: the source's cwd at the same place under the new root. */
  readonly cwd: string;
  /** The checkpoint commit whose files it holds. */
  readonly commit: string;
}

/** Where the fork point is: the source's surviving turns, oldest first, and how many the fork keeps. */
export interface ForkPoint {
  readonly turnIds: readonly string[];
  readonly kept: number;
}

/**
 * Adds the worktree for a fork of a thread whose file recorded `recorded` (its durable stores) and
 * which worked in `sourceCwd`. `dest` names the worktree's root from the repository's.
 */
export async function forkIntoWorktree(recorded: readonly { readonly extensionId: string; readonly value: unknown }[], point: ForkPoint, sourceCwd: string, dest: (root: string) => string, host: HostCommands): Promise<ForkWorktree> {
  const found = filesAt(localRecords(recorded), point);
  if (found === undefined) throw new CheckpointError('no checkpoint on this machine records the files at the fork point: a worktree needs a turn that wrote files through a checkpoint');
  const { record, commit } = found;
  if (record.shadowDir !== '') throw new CheckpointError(`${record.root} is not a git work tree: only a git repository's files can start a worktree`);
  const root = dest(record.root);
  await localCheckpoints(record, host).worktree(root, commit);
  const relative = path.relative(record.root, sourceCwd);
  return { path: root, cwd: relative.startsWith('..') || path.isAbsolute(relative) ? root : path.join(root, relative), commit };
}

/**
 * The snapshot of the files as the kept turns left them: the last kept turn's closing snapshot; else
 * the opening one of the first dropped turn that wrote; else the closing one of the last kept turn that did.
 */
function filesAt(records: readonly CheckpointRecord[], point: ForkPoint): { readonly record: CheckpointRecord; readonly commit: string } | undefined {
  const of = (turnId: string | undefined) => records.find((record) => record.turnId === turnId);
  const last = of(point.turnIds[point.kept - 1]);
  if (last?.after !== undefined) return { record: last, commit: last.after };
  for (const turnId of point.turnIds.slice(point.kept)) {
    const later = of(turnId);
    if (later !== undefined) return { record: later, commit: later.before };
  }
  for (const turnId of point.turnIds.slice(0, point.kept).reverse()) {
    const earlier = of(turnId);
    if (earlier?.after !== undefined) return { record: earlier, commit: earlier.after };
  }
  return undefined;
}
