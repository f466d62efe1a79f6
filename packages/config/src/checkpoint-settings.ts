// File checkpoints (Skein's own, `[skein.checkpoints]`): a snapshot of each environment's workspace
// before a turn first writes to it, so `thread/revert` can put the files back. Codex's
// `[ghost_snapshot]` caps (what its undo snapshots leave out) are read as the defaults of ours.
import * as z from 'zod';

/** `off`; `git-only` (the default): git work trees only; `on`: also folders outside git, in a private repository. */
export const CheckpointModeToml = z.enum(['off', 'git-only', 'on']);
export type CheckpointMode = z.infer<typeof CheckpointModeToml>;

/** `[skein.checkpoints]`. */
export const CheckpointsToml = z.object({
  mode: CheckpointModeToml.optional(),
  /** Untracked and ignored files larger than this are left out of a checkpoint (bytes). */
  max_file_bytes: z.int().positive().optional(),
  /** An untracked or ignored folder holding more files than this is left out whole. */
  max_dir_files: z.int().positive().optional(),
  /** Checkpoints older than this many days are pruned when the next one is taken in the same repository. */
  max_age_days: z.number().positive().optional(),
  /** Outside git (`mode = "on"`): a workspace with more files than this is not checkpointed. */
  max_workspace_files: z.int().positive().optional(),
});
export type CheckpointsToml = z.infer<typeof CheckpointsToml>;

/** Codex's `[ghost_snapshot]` keys Skein reads. */
export const GhostSnapshotToml = z.looseObject({
  ignore_large_untracked_files: z.int().optional(),
  ignore_large_untracked_dirs: z.int().optional(),
  disable_warnings: z.boolean().optional(),
});
export type GhostSnapshotToml = z.infer<typeof GhostSnapshotToml>;

/** How checkpoints are taken. */
export interface CheckpointSettings {
  readonly mode: CheckpointMode;
  readonly maxFileBytes: number;
  readonly maxDirFiles: number;
  readonly maxAgeDays: number;
  readonly maxWorkspaceFiles: number;
  /** Whether what a checkpoint left out is told to the client as a warning. */
  readonly warnings: boolean;
}

export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_CHECKPOINT_MAX_DIR_FILES = 200;
export const DEFAULT_CHECKPOINT_MAX_AGE_DAYS = 30;
export const DEFAULT_CHECKPOINT_MAX_WORKSPACE_FILES = 20_000;

/** The settings `[skein.checkpoints]` and `[ghost_snapshot]` make (a non-positive ghost cap keeps our default). */
export function checkpointSettings(checkpoints: CheckpointsToml | undefined, ghost: GhostSnapshotToml | undefined): CheckpointSettings {
  const positive = (value: number | undefined) => (value !== undefined && value > 0 ? value : undefined);
  return {
    mode: checkpoints?.mode ?? 'git-only',
    maxFileBytes: checkpoints?.max_file_bytes ?? positive(ghost?.ignore_large_untracked_files) ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
    maxDirFiles: checkpoints?.max_dir_files ?? positive(ghost?.ignore_large_untracked_dirs) ?? DEFAULT_CHECKPOINT_MAX_DIR_FILES,
    maxAgeDays: checkpoints?.max_age_days ?? DEFAULT_CHECKPOINT_MAX_AGE_DAYS,
    maxWorkspaceFiles: checkpoints?.max_workspace_files ?? DEFAULT_CHECKPOINT_MAX_WORKSPACE_FILES,
    warnings: ghost?.disable_warnings !== true,
  };
}
