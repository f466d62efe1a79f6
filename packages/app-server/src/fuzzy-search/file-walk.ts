// The walk a fuzzy search matches against: every file and directory under the roots (hidden ones
// too, symlinks followed, loops skipped), minus what ignore files exclude. Directories are read a
// few at a time with async I/O so a big tree never blocks the event loop, and the walk stops at
// a bound or when its signal aborts, keeping what it found.
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { IgnoreRules } from './ignore-rules.js';

/** One file or directory found by a walk. */
export interface WalkEntry {
  /** The root as the client gave it. */
  readonly root: string;
  /** Relative to the root, `/`-separated; `''` for the root itself. */
  readonly path: string;
  /** The last component of `path`. */
  readonly fileName: string;
  readonly directory: boolean;
}

/** What a walk may do. */
export interface WalkOptions {
  /** The most entries it collects; beyond it the walk stops and reports `truncated`. */
  readonly maxEntries: number;
  /** Directories read at once. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Resolves a relative root (the server's working directory is the base). */
  readonly resolveRoot: (root: string) => string;
}

/** The entries found and whether a bound or the signal cut the walk short. */
export interface WalkResult {
  readonly entries: readonly WalkEntry[];
  readonly truncated: boolean;
}

interface PendingDirectory {
  readonly root: string;
  readonly absolute: string;
  /** The directory's real path, to recognize a symlink back to an ancestor. */
  readonly real: string;
  readonly relative: string;
  readonly rules: IgnoreRules;
}

const DEFAULT_CONCURRENCY = 8;
/** Entries handled between two yields to the event loop inside one huge directory. */
const ENTRIES_PER_SLICE = 2_000;

/** Walks `roots` (duplicates once); a root that is missing or not a directory adds nothing. */
export async function walkRoots(roots: readonly string[], options: WalkOptions): Promise<WalkResult> {
  const entries: WalkEntry[] = [];
  let truncated = false;
  const full = (): boolean => {
    if (entries.length >= options.maxEntries) truncated = true;
    return truncated || options.signal?.aborted === true;
  };
  const queue: PendingDirectory[] = [];
  for (const root of new Set(roots)) {
    const absolute = options.resolveRoot(root);
    const real = await realpath(absolute).catch(() => undefined);
    if (real === undefined || !(await isDirectory(real))) continue;
    if (full()) break;
    entries.push({ root, path: '', fileName: '', directory: true });
    queue.push({ root, absolute, real, relative: '', rules: await IgnoreRules.forRoot(absolute) });
  }

  const visit = async (dir: PendingDirectory): Promise<void> => {
    let children: Dirent[];
    try {
      children = await readdir(dir.absolute, { withFileTypes: true });
    } catch {
      // Unreadable (permissions, gone meanwhile): its contents are simply not searched.
      return;
    }
    const childRules = dir.relative === '' ? dir.rules : await dir.rules.enter(dir.absolute, ignoreFilesIn(children));
    let handled = 0;
    for (const child of children) {
      if (full()) return;
      if (++handled % ENTRIES_PER_SLICE === 0) await yieldToLoop();
      const absolute = path.join(dir.absolute, child.name);
      let directory = child.isDirectory();
      let real = path.join(dir.real, child.name);
      if (child.isSymbolicLink()) {
        const target = await followLink(absolute);
        // A dangling link, or one back to the directory itself or an ancestor, is left out.
        if (target === undefined || (target.directory && isSameOrInside(dir.real, target.real))) continue;
        directory = target.directory;
        real = target.real;
      } else if (!directory && !child.isFile()) {
        // Sockets, FIFOs and devices are not files a user opens.
        continue;
      }
      if (childRules.ignores(absolute, directory)) continue;
      const relative = dir.relative === '' ? child.name : `${dir.relative}/${child.name}`;
      entries.push({ root: dir.root, path: relative, fileName: child.name, directory });
      if (directory) queue.push({ root: dir.root, absolute, real, relative, rules: childRules });
    }
  };

  // A small pool: up to `concurrency` directories in flight, each adding its subdirectories to the queue.
  const running = new Set<Promise<void>>();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  while ((queue.length > 0 || running.size > 0) && !full()) {
    while (queue.length > 0 && running.size < concurrency) {
      // A directory that fails midway keeps what it added; the rest of the walk goes on.
      const task: Promise<void> = visit(queue.shift() as PendingDirectory)
        .catch(() => undefined)
        .finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size > 0) await Promise.race(running);
  }
  await Promise.allSettled(running);
  return { entries: entries.slice(0, options.maxEntries), truncated: truncated || (options.signal?.aborted ?? false) };
}

/** Which ignore files a directory's listing shows, so the rules read only what is there. */
function ignoreFilesIn(children: readonly Dirent[]): { hasGit: boolean; hasIgnoreFiles: boolean } {
  let hasGit = false;
  let hasIgnoreFiles = false;
  for (const child of children) {
    if (child.name === '.git') hasGit = true;
    else if (child.name === '.ignore' || child.name === '.gitignore') hasIgnoreFiles = true;
  }
  return { hasGit, hasIgnoreFiles };
}

async function followLink(link: string): Promise<{ real: string; directory: boolean } | undefined> {
  try {
    const real = await realpath(link);
    const info = await stat(real);
    if (!info.isDirectory() && !info.isFile()) return undefined;
    return { real, directory: info.isDirectory() };
  } catch {
    return undefined;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() ?? false;
}

function isSameOrInside(dir: string, ancestor: string): boolean {
  return dir === ancestor || dir.startsWith(ancestor.endsWith(path.sep) ? ancestor : ancestor + path.sep);
}

/** Lets other work (requests, notifications) run between slices of a long loop. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
