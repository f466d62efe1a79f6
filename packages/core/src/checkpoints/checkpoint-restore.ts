// Putting one workspace's files back from the checkpoints of the turns a revert drops. A file is
// restored only when the workspace still holds what the last of those turns left in it: anything
// the user changed since (after a turn, between two turns, or after a turn whose end is unknown) is
// kept and reported as a conflict, unless forced. A file the first checkpoint left out (over its
// size caps) is never deleted: the checkpoint cannot tell whether it was there before.
import type { CheckpointSettings } from '@skein/config';
import type { GitCheckpoints, PathChange } from './git-checkpoints.js';
import type { CheckpointRecord, EnvironmentRestore, RestoredFile } from './thread-checkpoints.js';

/** What a restore of one workspace needs besides its repository. */
export interface WorkspaceRestore {
  /** The dropped turns' checkpoints in this workspace, oldest first. */
  readonly records: readonly CheckpointRecord[];
  readonly force: boolean;
  readonly settings: CheckpointSettings;
  /** The ref the state before the revert is kept under. */
  readonly revertRef: string;
  /** The prefix of each dropped turn's refs, deleted once the files are back. */
  readonly turnRefPrefix: (turnId: string) => string;
  readonly nowMs: number;
}

/** Restores the workspace of `restore.records` (all of one environment, root and repository). */
export async function restoreWorkspace(git: GitCheckpoints, restore: WorkspaceRestore): Promise<Omit<EnvironmentRestore, 'environmentId'>> {
  const { records, force } = restore;
  const first = records[0] as CheckpointRecord;
  const native = (file: string) => joinNative(first.root, file);
  const now = await git.snapshot(restore.revertRef, restore.settings, { message: 'skein: before a revert', prunePrefix: '', nowMs: restore.nowMs });
  if (!('commit' in now)) return { root: first.root, restored: [], conflicts: [], failed: [], error: now.unavailable };
  if (now.root !== first.root) return { root: first.root, restored: [], conflicts: [], failed: [], error: `the checkpoints were taken in ${first.root}, but git now finds the work tree at ${now.root}` };

  // Each turn's end: its closing snapshot, else the next turn's opening one; unknown for a turn that never closed.
  const ends = records.map((record, index) => record.after ?? records[index + 1]?.before);
  const expected = new Map<string, string | undefined>();
  for (const [index, record] of records.entries()) {
    for (const file of (await git.changes(record.before, ends[index] ?? now.commit)).keys()) expected.set(file, ends[index]);
  }
  const conflicts = new Set<string>();
  // After an unknown end, the turn's work and the user's later work cannot be told apart.
  for (const [file, end] of expected) if (end === undefined) conflicts.add(file);
  for (const end of new Set([...expected.values()].filter((commit): commit is string => commit !== undefined))) {
    const files = [...expected].filter(([, commit]) => commit === end).map(([file]) => file);
    for (const file of (await git.changes(end, now.commit, files)).keys()) conflicts.add(file);
  }
  // Changed between two of the turns: by someone else.
  for (let index = 1; index < records.length; index++) {
    const previousEnd = ends[index - 1];
    if (previousEnd === undefined || previousEnd === records[index]!.before) continue;
    for (const file of (await git.changes(previousEnd, records[index]!.before, [...expected.keys()])).keys()) conflicts.add(file);
  }
  const restoring = new Set([...expected.keys()].filter((file) => force || !conflicts.has(file)));
  const changes = await git.changes(now.commit, first.before, [...restoring]);
  // Left out of the first checkpoint: absent from it, but perhaps there before the turn.
  const leftOut = (file: string) => (first.leftOut ?? []).some((entry) => file === entry || (entry.endsWith('/') && file.startsWith(entry)));
  const kept = [...changes].filter(([file, change]) => change === 'D' && (first.leftOutTruncated === true || leftOut(file))).map(([file]) => file);
  for (const file of kept) {
    changes.delete(file);
    conflicts.add(file);
  }
  const diffs = await git.patches(now.commit, first.before, [...changes.keys()]);
  const failed = await git.restore(first.before, [...changes].filter(([, change]) => change !== 'D').map(([file]) => file), [...changes].filter(([, change]) => change === 'D').map(([file]) => file));
  for (const record of records) await git.prune(restore.turnRefPrefix(record.turnId));
  const kindOf = (change: PathChange): RestoredFile['kind'] => (change === 'D' ? 'delete' : change === 'A' ? 'add' : 'update');
  return {
    root: first.root,
    restored: [...changes].filter(([file]) => !failed.includes(file)).map(([file, change]) => ({ path: native(file), kind: kindOf(change), diff: diffs.get(file) ?? '' })),
    conflicts: [...conflicts].filter((file) => kept.includes(file) || !restoring.has(file)).sort().map(native),
    failed: failed.map(native),
    error: undefined,
  };
}

/** `root` and a path from it, in the root's own spelling (an executor may be Windows). */
export function joinNative(root: string, file: string): string {
  const separator = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return `${root.replace(/[\\/]+$/, '')}${separator}${separator === '/' ? file : file.replaceAll('/', '\\')}`;
}
