// Bookkeeping for the empty directories bubblewrap leaves on the host when it masks a protected path
// that did not exist (`.git`, `.codex`, … inside a writable root). Each sandbox registers the targets
// it uses; the last one out removes them, so concurrent sandboxes never lose a mask they still need.
//
// Every process of the user shares the registry (masks under /tmp are shared), so looking at the disk,
// planning and registering (in prepareSandboxedSpawn) and dropping a marker, checking the others and
// removing the target (in a release) each happen under one registry lock. Without it a release in
// another process could remove a mask between a newcomer's plan ("it exists: bind it") and its
// registration, and the newcomer's bubblewrap fails with "Can't find source path" — rarely, except on
// a loaded machine, where the gap between those steps grows.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The registry lock: a file created exclusively in the registry folder, holding its owner's pid. */
export const REGISTRY_LOCK_FILE = 'lock';
/**
 * A lock older than this is taken over even if its pid is alive (a reused pid, a stopped process):
 * holders keep it for a few filesystem calls, so this only ever matters after something went wrong.
 */
export const REGISTRY_LOCK_STALE_MS = 30_000;
// Waiting for the lock: short sleeps first (a holder needs microseconds), then up to this.
const MAX_LOCK_SLEEP_MS = 20;

/** A live registration, returned by {@link registerMountTargets}. */
export interface MountTargetRegistration {
  readonly registryDir: string;
  readonly targets: readonly string[];
  /** `<pid>-<sequence>`: the marker file name in each target's registry folder. */
  readonly marker: string;
}

let sequence = 0;
const liveMarkers = new Set<string>();

const folderOf = (registryDir: string, target: string): string =>
  path.join(registryDir, createHash('sha256').update(target).digest('hex').slice(0, 32));

// Registry folders whose lock this process holds, with the nesting depth (the lock is re-entrant).
const held = new Map<string, number>();

type Attempt = 'acquired' | 'busy' | 'unusable';

function tryLock(registryDir: string): Attempt {
  const file = path.join(registryDir, REGISTRY_LOCK_FILE);
  try {
    mkdirSync(registryDir, { recursive: true, mode: 0o700 });
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeFileSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return 'acquired';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'unusable';
  }
  // Held: take it over only when its owner is gone (or it is far too old to be a real hold).
  try {
    const owner = Number(readFileSync(file, 'utf8'));
    const age = Date.now() - statSync(file).mtimeMs;
    // An empty file is an owner between creating and writing it: alive unless it stays that way.
    const ownerGone = Number.isInteger(owner) && owner > 0 && owner !== process.pid && !pidIsAlive(owner);
    if (ownerGone || age > REGISTRY_LOCK_STALE_MS) unlinkSync(file);
  } catch {
    // Released meanwhile: try again.
  }
  return 'busy';
}

function unlock(registryDir: string): void {
  const depth = held.get(registryDir) ?? 0;
  if (depth > 1) {
    held.set(registryDir, depth - 1);
    return;
  }
  held.delete(registryDir);
  try {
    unlinkSync(path.join(registryDir, REGISTRY_LOCK_FILE));
  } catch {
    // Taken over as stale; nothing to undo.
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` holding the registry lock, waiting for other processes as long as they hold it. Best
 * effort like the rest of the bookkeeping: a registry where no lock file can be made runs `fn` unlocked.
 */
export function withRegistryLock<T>(registryDir: string, fn: () => T): T {
  const depth = held.get(registryDir);
  if (depth !== undefined) {
    held.set(registryDir, depth + 1);
  } else {
    for (let attempt = 0; ; attempt += 1) {
      const outcome = tryLock(registryDir);
      if (outcome === 'unusable') return fn();
      if (outcome === 'acquired') break;
      Atomics.wait(sleeper, 0, 0, Math.min(MAX_LOCK_SLEEP_MS, 1 + attempt));
    }
    held.set(registryDir, 1);
  }
  try {
    return fn();
  } finally {
    unlock(registryDir);
  }
}

/** {@link withRegistryLock}, waiting without blocking the event loop. */
export async function withRegistryLockAsync<T>(registryDir: string, fn: () => T): Promise<T> {
  if (!held.has(registryDir)) {
    for (let attempt = 0; ; attempt += 1) {
      const outcome = tryLock(registryDir);
      if (outcome === 'unusable') return fn();
      if (outcome === 'acquired') break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_LOCK_SLEEP_MS, 1 + attempt)));
    }
    // Held from here; `fn` runs synchronously, so no other task of this process can interleave.
    held.set(registryDir, 0);
  }
  return withRegistryLock(registryDir, fn);
}

/** Records that a sandbox of this process is about to use `targets`. Best effort: failures only cost cleanup. */
export function registerMountTargets(registryDir: string, targets: readonly string[]): MountTargetRegistration {
  return withRegistryLock(registryDir, () => registerUnlocked(registryDir, targets));
}

function registerUnlocked(registryDir: string, targets: readonly string[]): MountTargetRegistration {
  sequence += 1;
  const marker = `${process.pid}-${sequence}`;
  liveMarkers.add(marker);
  for (const target of targets) {
    try {
      const folder = folderOf(registryDir, target);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(folder, marker), target);
    } catch {
      // Without a marker the target is simply left behind; confinement is unaffected.
    }
  }
  return { registryDir, targets, marker };
}

/**
 * Which of `paths` are mount targets a live sandbox created (registered, with a live marker). A
 * sandbox that finds one already there uses it as an ordinary path, so it must register it too, or
 * the creator's release removes it under the newcomer.
 */
export function liveMountTargets(registryDir: string, paths: readonly string[]): string[] {
  return paths.filter((target) => {
    try {
      return readdirSync(folderOf(registryDir, target)).some(markerIsLive);
    } catch {
      return false;
    }
  });
}

function markerIsLive(marker: string): boolean {
  const pid = Number(marker.split('-')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return liveMarkers.has(marker);
  return pidIsAlive(pid);
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops this sandbox's markers; a target no live sandbox uses any more is removed if it is still an
 * empty directory (a directory someone filled meanwhile is left alone).
 */
export function releaseMountTargets(registration: MountTargetRegistration): void {
  withRegistryLock(registration.registryDir, () => releaseUnlocked(registration));
}

function releaseUnlocked(registration: MountTargetRegistration): void {
  liveMarkers.delete(registration.marker);
  for (const target of registration.targets) {
    const folder = folderOf(registration.registryDir, target);
    try {
      unlinkSync(path.join(folder, registration.marker));
    } catch {
      // Already gone.
    }
    let others: string[];
    try {
      others = readdirSync(folder);
    } catch {
      others = [];
    }
    let inUse = false;
    for (const marker of others) {
      if (markerIsLive(marker)) inUse = true;
      else {
        try {
          unlinkSync(path.join(folder, marker));
        } catch {
          // A concurrent release removed it.
        }
      }
    }
    if (inUse) continue;
    try {
      rmdirSync(target);
    } catch {
      // Not empty, already removed, or busy: leave it.
    }
    try {
      rmdirSync(folder);
    } catch {
      // Another sandbox registered meanwhile.
    }
  }
}
