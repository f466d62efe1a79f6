// Where a thread works, as a client names it: relative to the server's working directory, unless it
// is absolute on the executor it names. A Windows executor's directory (`C:\…`, `\\server\share`) is
// absolute there and no path on this POSIX host, so it is kept as written.
import path from 'node:path';
import type { LoadedConfig } from '@skein/config';

/** Whether `cwd` is absolute in the Windows convention (a drive or UNC path) while this host's is POSIX. */
export function isForeignAbsolute(cwd: string): boolean {
  return path.sep === '/' && /^(?:[A-Za-z]:[\\/]|\\\\)/.test(cwd);
}

/** `cwd` made absolute against `base` (the server's working directory), a Windows one kept as it is. */
export function resolveThreadCwd(base: string, cwd: string): string {
  return isForeignAbsolute(cwd) ? cwd : path.resolve(base, cwd);
}

/**
 * Config for a thread working in `cwd`, by `load` (a loader taking the host directory to read project
 * layers from). A Windows executor's directory has no project on this host: its config is the home's
 * and the client's, loaded from this host's root, and works in `cwd`.
 */
export async function loadThreadConfig(load: (at: string) => Promise<LoadedConfig>, cwd: string): Promise<LoadedConfig> {
  if (!isForeignAbsolute(cwd)) return load(cwd);
  const loaded = await load(path.parse(process.cwd()).root);
  return { ...loaded, config: { ...loaded.config, cwd } };
}
