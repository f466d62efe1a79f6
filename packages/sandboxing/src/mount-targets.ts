// Bookkeeping for the empty directories bubblewrap leaves on the host when it masks a protected path
// that did not exist (`.git`, `.codex`, … inside a writable root). Each sandbox registers the targets
// it uses; the last one out removes them, so concurrent sandboxes never lose a mask they still need.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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

/** Records that a sandbox of this process is about to use `targets`. Best effort: failures only cost cleanup. */
export function registerMountTargets(registryDir: string, targets: readonly string[]): MountTargetRegistration {
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
