// Writes a planned patch. Everything was computed and checked before the first write; if a write
// still fails (a full disk, a permission the sandbox denies) the changes made so far are undone.
import type { ExecutorFileSystem, FileSystemSandboxContext } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';
import { PatchApplyError, type FileChange, type PriorContents } from './plan-patch.js';

/** Options of {@link applyPlannedChanges}. */
export interface ApplyPlannedChangesOptions {
  /** Confines the writes like the turn's commands. */
  readonly sandbox?: FileSystemSandboxContext | null | undefined;
}

const encoder = new TextEncoder();

/**
 * Applies `changes` in order: adds create missing parent directories, moves write the destination
 * and then remove the source.
 *
 * On a failed write the already applied changes are undone in reverse order, each path getting back
 * the bytes it held before (or removed if it did not exist). That is best effort: directories created
 * for new files stay, and if undoing itself fails the error says which files may be left changed.
 *
 * @throws PatchApplyError 'WriteFailed' naming the file whose write failed.
 */
export async function applyPlannedChanges(changes: readonly FileChange[], fs: ExecutorFileSystem, options: ApplyPlannedChangesOptions = {}): Promise<void> {
  const call = { sandbox: options.sandbox };
  const undo: { path: PathUri; displayPath: string; previous: PriorContents }[] = [];
  for (const change of changes) {
    let current = change.displayPath;
    try {
      switch (change.kind) {
        case 'add':
          undo.push({ path: change.path, displayPath: change.displayPath, previous: change.previous });
          await writeWithParents(fs, change.path, change.contents, call);
          break;
        case 'delete':
          undo.push({ path: change.path, displayPath: change.displayPath, previous: change.previous });
          await fs.remove(change.path, call);
          break;
        case 'update':
          if (change.move === undefined) {
            undo.push({ path: change.path, displayPath: change.displayPath, previous: change.previous });
            await fs.writeFile(change.path, encoder.encode(change.contents), call);
            break;
          }
          current = change.move.displayPath;
          undo.push({ path: change.move.path, displayPath: change.move.displayPath, previous: change.move.previous });
          await writeWithParents(fs, change.move.path, change.contents, call);
          current = change.displayPath;
          undo.push({ path: change.path, displayPath: change.displayPath, previous: change.previous });
          await fs.remove(change.path, call);
          break;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const unrestored = await rollBack(fs, undo, call);
      const tail = unrestored.length === 0 ? 'no file was changed' : `these files could not be restored: ${unrestored.join(', ')}`;
      throw new PatchApplyError('WriteFailed', `failed to write ${current}: ${reason}; ${tail}`, { path: current });
    }
  }
}

async function writeWithParents(fs: ExecutorFileSystem, path: PathUri, contents: string, call: ApplyPlannedChangesOptions): Promise<void> {
  if (!path.isRoot) await fs.createDirectory(path.parent(), { ...call, recursive: true });
  await fs.writeFile(path, encoder.encode(contents), call);
}

/** Restores each touched path, newest change first; returns the paths it could not restore. */
async function rollBack(fs: ExecutorFileSystem, undo: readonly { path: PathUri; displayPath: string; previous: PriorContents }[], call: ApplyPlannedChangesOptions): Promise<string[]> {
  const failed: string[] = [];
  for (const entry of [...undo].reverse()) {
    try {
      if (entry.previous === null) await fs.remove(entry.path, { ...call, force: true });
      else await fs.writeFile(entry.path, entry.previous, call);
    } catch {
      failed.push(entry.displayPath);
    }
  }
  return [...new Set(failed)];
}
