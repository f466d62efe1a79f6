// `skein exec resume <id> --revert <turn>`: the script form of thread/revert. The turn and every later
// one leave the thread's history and, where checkpoints were taken, their files go back; what was kept
// (changed since) or could not be written is said on stderr, and makes the run fail unless forced.
import type { RevertResult, ThreadHandle } from '@skein/core';

/** The revert flags of `exec resume`. */
export interface ExecRevertOptions {
  readonly revert?: string;
  readonly keepFiles?: boolean;
  readonly force?: boolean;
}

/** Reverts `handle` as the flags ask; returns the lines to print and whether everything was restored. */
export async function execRevert(handle: ThreadHandle, options: ExecRevertOptions & { readonly revert: string }): Promise<{ readonly lines: string[]; readonly complete: boolean }> {
  const restoreFiles = options.keepFiles !== true;
  const result = await handle.revert(options.revert, { restoreFiles, force: options.force === true });
  const summary = summarize(result);
  if (restoreFiles && result.restores.length === 0) summary.lines.push('no checkpoints were taken for these turns: the files are as they are');
  return summary;
}

function summarize(result: RevertResult): { readonly lines: string[]; readonly complete: boolean } {
  const lines = [`reverted ${result.droppedTurnIds.length} turn(s) from ${result.droppedTurnIds[0] ?? '(none)'}`];
  let complete = true;
  for (const restore of result.restores) {
    if (restore.error !== undefined) {
      complete = false;
      lines.push(`${restore.environmentId}: files not restored: ${restore.error}`);
      continue;
    }
    lines.push(`${restore.environmentId}: restored ${restore.restored.length} file(s) under ${restore.root}`);
    for (const file of restore.conflicts) lines.push(`${restore.environmentId}: kept ${file} (changed since the turn that wrote it; --force overwrites it)`);
    for (const file of restore.failed) lines.push(`${restore.environmentId}: could not restore ${file}`);
    if (restore.conflicts.length > 0 || restore.failed.length > 0) complete = false;
  }
  return { lines, complete };
}
