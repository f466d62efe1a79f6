// Where Skein keeps config, sessions and state: SKEIN_HOME, else CODEX_HOME, else ~/.codex.
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * The home directory. `SKEIN_HOME` wins so Skein can be kept apart from a Codex install when wanted;
 * otherwise Skein shares Codex's (`CODEX_HOME`, then `~/.codex`), so an existing Codex set-up —
 * config.toml, profiles, providers, sessions — works unchanged.
 */
export function resolveHomeDir(env: Readonly<Record<string, string | undefined>>, userHome: string = os.homedir()): string {
  for (const name of ['SKEIN_HOME', 'CODEX_HOME'] as const) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!path.isAbsolute(value)) {
      throw new ConfigError('InvalidHomeDir', name, undefined, `must be an absolute path, got '${value}'`);
    }
    return path.normalize(value);
  }
  return path.join(userHome, '.codex');
}
