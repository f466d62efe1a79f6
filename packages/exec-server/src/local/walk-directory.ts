// The bounded breadth-first walk behind `fs/walk`: caps on depth, directories, entries and response
// size; a descendant that cannot be read becomes an error entry instead of failing the walk.
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PathUriError, type PathUri } from '@skein/protocol/executor';
import { FileSystemError, isSystemError, osErrorMessage } from '../file-system-error.js';
import type { WalkEntry, WalkError, WalkOptions, WalkOutcome } from '../file-system.js';
import {
  MAX_WALK_DEPTH,
  MAX_WALK_DIRECTORIES,
  MAX_WALK_ENTRIES,
  MAX_WALK_RESPONSE_BYTES,
  WALK_ITEM_OVERHEAD_BYTES,
} from '../limits.js';
import { fromNativePath } from './native-path.js';

/** Rejects limits outside 1..max (depth may be 0), with Codex's wording. */
export function checkWalkLimits(options: WalkOptions): void {
  if (options.maxDepth < 0 || options.maxDirectories < 1 || options.maxEntries < 1) {
    throw new FileSystemError('InvalidArgument', 'filesystem walk limits must be greater than zero');
  }
  if (options.maxDepth > MAX_WALK_DEPTH || options.maxDirectories > MAX_WALK_DIRECTORIES || options.maxEntries > MAX_WALK_ENTRIES) {
    throw new FileSystemError(
      'InvalidArgument',
      `filesystem walk limits exceed maximums: depth=${MAX_WALK_DEPTH}, directories=${MAX_WALK_DIRECTORIES}, entries=${MAX_WALK_ENTRIES}`,
    );
  }
}

function describe(error: unknown): string {
  if (isSystemError(error)) return osErrorMessage(error.code);
  if (error instanceof Error) return error.message;
  return String(error);
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Walks the tree under the native directory `root`. A missing root throws; a file root yields nothing. */
export async function walkDirectory(root: string, options: WalkOptions): Promise<WalkOutcome> {
  checkWalkLimits(options);
  const rootInfo = await stat(root);
  const outcome: WalkOutcome = { entries: [], errors: [], truncated: false };
  if (!rootInfo.isDirectory()) return outcome;

  const queue: { native: string; depth: number }[] = [{ native: root, depth: 0 }];
  // Identity (device:inode) of every directory queued, so followed symlinks cannot loop.
  const seen = new Set<string>([`${rootInfo.dev}:${rootInfo.ino}`]);
  let traversed = 0;
  let examined = 0;
  let budget = MAX_WALK_RESPONSE_BYTES;

  const charge = (uri: PathUri, extra: number): boolean => {
    budget -= uri.toString().length + extra + WALK_ITEM_OVERHEAD_BYTES;
    return budget >= 0;
  };
  const report = (native: string, error: unknown): boolean => {
    const uri = safeUri(native) ?? safeUri(path.dirname(native));
    if (uri === undefined) return true;
    const item: WalkError = { path: uri, message: describe(error) };
    if (!charge(uri, item.message.length)) return false;
    outcome.errors.push(item);
    return true;
  };

  for (let next = 0; next < queue.length; next += 1) {
    const directory = queue[next]!;
    if (traversed === options.maxDirectories) {
      outcome.truncated = true;
      break;
    }
    traversed += 1;
    let names: string[];
    try {
      names = (await readdir(directory.native)).sort(byName);
    } catch (error) {
      if (directory.depth === 0) throw error;
      if (!report(directory.native, error)) return { ...outcome, truncated: true };
      continue;
    }
    for (const name of names) {
      if (examined === options.maxEntries) return { ...outcome, truncated: true };
      examined += 1;
      const native = path.join(directory.native, name);
      let kind: WalkEntry['kind'] | undefined;
      let descend = false;
      let identity: string | undefined;
      try {
        const own = await lstat(native);
        if (own.isSymbolicLink()) {
          if (options.followDirectorySymlinks) {
            const target = await stat(native).catch(() => undefined);
            if (target?.isDirectory() === true) {
              kind = 'directory';
              identity = `${target.dev}:${target.ino}`;
              descend = true;
            }
          }
        } else if (own.isDirectory()) {
          kind = 'directory';
          identity = `${own.dev}:${own.ino}`;
          descend = true;
        } else if (own.isFile()) {
          kind = 'file';
        }
      } catch (error) {
        if (!report(native, error)) return { ...outcome, truncated: true };
        continue;
      }
      if (kind === undefined) continue;
      const uri = safeUri(native);
      if (uri === undefined) {
        if (!report(native, new Error(`name cannot be written as a file URI: ${JSON.stringify(name)}`))) {
          return { ...outcome, truncated: true };
        }
        continue;
      }
      if (!charge(uri, 0)) return { ...outcome, truncated: true };
      outcome.entries.push({ path: uri, kind });
      const hidden = options.pruneHiddenDirectories === true && name.startsWith('.');
      if (descend && !hidden && directory.depth + 1 <= options.maxDepth && identity !== undefined && !seen.has(identity)) {
        seen.add(identity);
        queue.push({ native, depth: directory.depth + 1 });
      }
    }
  }
  return outcome;
}

function safeUri(native: string): PathUri | undefined {
  try {
    return fromNativePath(native);
  } catch (error) {
    if (error instanceof PathUriError) return undefined;
    throw error;
  }
}
