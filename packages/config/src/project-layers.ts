// Project config: `.codex/config.toml` in each folder from the project root down to the cwd
// (closest wins), read only when the user's config marks the project trusted.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ProjectToml } from './config-toml.js';

/** Files that mark a project root when no `project_root_markers` is configured (Codex's default). */
export const DEFAULT_PROJECT_ROOT_MARKERS: readonly string[] = ['.git'];

/** The nearest folder at or above `cwd` holding one of `markers`, else `cwd` itself; `exists` asks the disk. */
export function findProjectRoot(cwd: string, markers: readonly string[], exists: (path: string) => boolean = existsSync): string {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (markers.some((marker) => exists(path.join(dir, marker)))) return dir;
    if (path.dirname(dir) === dir) return cwd;
  }
}

/** The candidate project config files, root first, cwd last, skipping the home directory's own file. */
export function projectConfigFiles(root: string, cwd: string, homeDir: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const homeFile = path.join(homeDir, 'config.toml');
  return dirs.map((dir) => path.join(dir, '.codex', 'config.toml')).filter((file) => file !== homeFile);
}

/**
 * Whether the user trusts the project at `root` (or a folder between it and `cwd`): the closest
 * `[projects."<path>"]` entry with a `trust_level` decides; no entry means untrusted.
 */
export function isProjectTrusted(projects: Readonly<Record<string, ProjectToml>>, root: string, cwd: string): boolean {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const level = projects[dir]?.trust_level;
    if (level !== undefined) return level === 'trusted';
    if (dir === root || path.dirname(dir) === dir) return false;
  }
}
