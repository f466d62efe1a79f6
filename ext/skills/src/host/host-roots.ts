// The folders host skills are found in, lowest precedence last as Codex lists them: the repo's
// (`.codex/skills` and `.agents/skills` from the cwd up to the project root), the user's
// (`<home>/skills`, `~/.agents/skills`), extra roots a client set, the admin's, then the bundled
// system skills.
import path from 'node:path';
import type { SkillScope } from '../skill.js';

/** One folder scanned for skills. */
export interface HostSkillRoot {
  readonly path: string;
  readonly scope: SkillScope;
}

/** What the host knows about where skills live for one working directory. */
export interface HostRootsInput {
  /** Skein's home (`CODEX_HOME`). */
  readonly home: string;
  /** The user's home directory, for `~/.agents/skills`; undefined to skip it. */
  readonly userHome?: string | undefined;
  readonly cwd: string;
  /** The project root containing `cwd` (where repo roots stop); `cwd` itself when there is none. */
  readonly projectRoot: string;
  /** Roots a client added at runtime (`skills/extraRoots/set`). */
  readonly extraRoots?: readonly string[];
  /** The admin root; `/etc/codex/skills` unless the host says otherwise, none for `null`. */
  readonly adminRoot?: string | null;
}

/** Where system skills are unpacked: `<home>/skills/.system`. */
export function systemSkillsDir(home: string): string {
  return path.join(home, 'skills', '.system');
}

/** The roots for `input`, without duplicates (the first mention of a folder wins). */
export function hostSkillRoots(input: HostRootsInput): HostSkillRoot[] {
  const roots: HostSkillRoot[] = [];
  for (const dir of dirsUpTo(path.resolve(input.cwd), path.resolve(input.projectRoot))) {
    roots.push({ path: path.join(dir, '.codex', 'skills'), scope: 'repo' }, { path: path.join(dir, '.agents', 'skills'), scope: 'repo' });
  }
  roots.push({ path: path.join(input.home, 'skills'), scope: 'user' });
  if (input.userHome !== undefined) roots.push({ path: path.join(input.userHome, '.agents', 'skills'), scope: 'user' });
  for (const extra of input.extraRoots ?? []) roots.push({ path: path.resolve(extra), scope: 'user' });
  const admin = input.adminRoot === undefined ? '/etc/codex/skills' : input.adminRoot;
  if (admin !== null) roots.push({ path: admin, scope: 'admin' });
  roots.push({ path: systemSkillsDir(input.home), scope: 'system' });
  const seen = new Set<string>();
  return roots.filter((root) => !seen.has(root.path) && seen.add(root.path));
}

/** `cwd` and its parents up to `top` (just `cwd` when `top` does not contain it). */
function dirsUpTo(cwd: string, top: string): string[] {
  const relative = path.relative(top, cwd);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return [cwd];
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if (dir === top || path.dirname(dir) === dir) return dirs;
  }
}
