import { describe, expect, it } from 'vitest';
import { checkpointSettings, CheckpointsToml } from './checkpoint-settings.js';

describe('checkpointSettings', () => {
  it('defaults to git work trees only, with caps from Codex ghost_snapshot keys when set', () => {
    expect(checkpointSettings(undefined, undefined)).toEqual({ mode: 'git-only', maxFileBytes: 10 * 1024 * 1024, maxDirFiles: 200, maxAgeDays: 30, maxWorkspaceFiles: 20_000, warnings: true });
    expect(checkpointSettings(undefined, { ignore_large_untracked_files: 1024, ignore_large_untracked_dirs: 0, disable_warnings: true })).toMatchObject({ maxFileBytes: 1024, maxDirFiles: 200, warnings: false });
    expect(checkpointSettings({ mode: 'off', max_file_bytes: 5 }, { ignore_large_untracked_files: 1024 })).toMatchObject({ mode: 'off', maxFileBytes: 5 });
  });

  it('refuses an unknown mode and non-positive caps', () => {
    expect(CheckpointsToml.safeParse({ mode: 'always' }).success).toBe(false);
    expect(CheckpointsToml.safeParse({ max_dir_files: 0 }).success).toBe(false);
    expect(CheckpointsToml.safeParse({ max_age_days: -1 }).success).toBe(false);
  });
});
