// One `fs/watch` target, followed the way Codex follows it: the path need not exist yet (its
// missing parent folders may appear later), and it may be deleted and created again. Two chokidar
// watchers do it: one on the target itself (a folder's direct children, or the file), while it
// exists, and one on its nearest existing ancestor, which sees the next folder on the way to the
// target (or the target) appear or go. Such a change re-arms them: a target that appeared in the
// meantime (`mkdir -p` makes a whole chain at once) is reported then. chokidar arms asynchronously
// (slowly on a loaded machine), so each watcher takes anything its first scan finds that was not
// there when it was asked for as a change, and once ready compares what is there with that again
// (a change between the scan and the watch taking hold is reported by neither).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/**
 * How often the target's existence is also checked directly. The watchers normally report it
 * appearing or going, but when a whole chain is deleted at once (`rm -r` of a parent) the ancestor
 * watcher can go with its folder without a word (chokidar reports nothing for its own root), and on
 * a loaded machine nothing then re-armed on what is left: the target made again was never seen
 * (about one run in fifteen of the fs-watch test under load). A check that finds the target there
 * when no watcher is on it, or gone while one is, re-arms; one stat per interval bounds how late.
 */
const EXISTENCE_CHECK_MS = 500;

export class WatchedTarget {
  #target: FSWatcher | undefined;
  /** Which file system object #target watches (device and inode): the same path made again is another. */
  #targetIdentity: string | undefined;
  readonly #existenceCheck: NodeJS.Timeout;
  /** The watcher of a target that went away, kept until the next re-arm so it still reports the children removed with it. */
  #gone: FSWatcher | undefined;
  #ancestor: FSWatcher | undefined;
  #closed = false;

  /** `onChange` receives each changed path: the target, or (for a folder) one of its children. */
  constructor(
    private readonly targetPath: string,
    private readonly onChange: (changedPath: string) => void,
  ) {
    this.#arm();
    this.#existenceCheck = setInterval(() => {
      const identity = identityOf(this.targetPath);
      if (identity === this.#targetIdentity) return;
      // Gone, appeared, or made again since the watchers last said: re-arm, and report it unless it went.
      this.#rearm(identity !== undefined);
    }, EXISTENCE_CHECK_MS).unref();
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#existenceCheck);
    for (const watcher of [this.#target, this.#gone, this.#ancestor]) watcher?.close().catch(() => undefined);
  }

  #arm(): void {
    this.#targetIdentity = identityOf(this.targetPath);
    if (this.#targetIdentity !== undefined) {
      // depth 0: a folder's direct children, as Codex watches (not recursive).
      this.#target = armed(this.targetPath, (event, changedPath) => {
        this.onChange(changedPath);
        // The target itself went: what is left must be watched for it to come back.
        if (changedPath === this.targetPath && (event === 'unlink' || event === 'unlinkDir')) setImmediate(() => this.#rearm());
      });
    }
    const ancestor = nearestExistingAncestor(this.targetPath);
    if (ancestor === undefined) return;
    // The entry of `ancestor` on the way to the target: the target itself, or its outermost missing (or present) parent.
    const step = path.join(ancestor, path.relative(ancestor, this.targetPath).split(path.sep)[0] ?? '');
    this.#ancestor = armed(ancestor, (event, changedPath) => {
      // The ancestor itself went (a deletion still under way when this watcher armed; reported by the
      // check once ready, as chokidar reports no event for its own root): a watch on a deleted folder
      // sees nothing more, so arm again on what is left.
      if (changedPath === ancestor && event === 'unlinkDir') {
        setImmediate(() => this.#rearm());
        return;
      }
      // Only an entry appearing or going changes what to watch; the target watcher reports its own changes.
      if (changedPath !== step || event === 'change') return;
      // The target going is reported here; its appearing, once re-armed.
      if (step === this.targetPath && (event === 'unlink' || event === 'unlinkDir')) this.onChange(this.targetPath);
      // Not from inside the watcher's own event: chokidar closed there can leave a handle open.
      setImmediate(() => this.#rearm());
    });
  }

  /** Arms the watchers again for what is there now; `reportTarget` reports the target even if it was watched before (made again). */
  #rearm(reportTarget = false): void {
    if (this.#closed) return;
    const existed = this.#target !== undefined && !reportTarget;
    this.#gone?.close().catch(() => undefined);
    this.#gone = this.#target;
    this.#ancestor?.close().catch(() => undefined);
    this.#target = undefined;
    this.#ancestor = undefined;
    this.#arm();
    if (!existed && this.#target !== undefined) this.onChange(this.targetPath);
  }
}

/** The device and inode at `target`, or undefined when nothing is there. */
function identityOf(target: string): string | undefined {
  const info = statSync(target, { throwIfNoEntry: false, bigint: true });
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

function exists(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false }) !== undefined;
}

/** The closest folder above `target` that exists (the root at worst). */
function nearestExistingAncestor(target: string): string | undefined {
  for (let current = path.dirname(target); ; current = path.dirname(current)) {
    if (exists(current)) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The path and, for a folder, its entries: what a watcher armed now finds there already. */
function presentNow(target: string): Set<string> {
  try {
    return new Set([target, ...readdirSync(target).map((entry) => path.join(target, entry))]);
  } catch {
    // A file has no entries; a path that is gone has nothing at all.
    return exists(target) ? new Set([target]) : new Set();
  }
}

/**
 * A watcher of `target` and its direct children that reports every change after this call: its
 * first scan reports only entries that were not there when it was asked for (they appeared while
 * it armed). A path that cannot be watched (gone, no permission) reports nothing, as with Codex.
 */
function armed(target: string, onEvent: (event: string, changedPath: string) => void): FSWatcher {
  const before = presentNow(target);
  /** What the first scan reported, so the check once ready does not report it again. */
  const scanned = new Set<string>();
  let ready = false;
  const watcher = watch(target, { depth: 0, ignoreInitial: false, persistent: true });
  watcher.on('error', () => undefined);
  watcher.on('ready', () => {
    ready = true;
    // A change between chokidar's scan and its watch taking hold is reported by neither: compare
    // what is there now with what was there when the watcher was asked for.
    const now = presentNow(target);
    for (const entry of now) if (!before.has(entry) && !scanned.has(entry)) onEvent(isFolder(entry) ? 'addDir' : 'add', entry);
    for (const entry of before) if (!now.has(entry) && !scanned.has(entry)) onEvent(entry === target ? 'unlinkDir' : 'unlink', entry);
  });
  watcher.on('all', (event, changedPath) => {
    if (!ready && before.has(changedPath) && event !== 'unlink' && event !== 'unlinkDir') return;
    if (!ready) scanned.add(changedPath);
    onEvent(event, changedPath);
  });
  return watcher;
}

function isFolder(entry: string): boolean {
  return statSync(entry, { throwIfNoEntry: false })?.isDirectory() === true;
}
