// This machine as a thread's environment: commands and file edits confined by the platform sandbox,
// and the facts about the host (shell, time zone) that the model is told. Hosts (exec, app-server)
// build theirs here so they behave alike.
import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem } from '@skein/exec-server';
import type { ThreadEnvironment } from './thread-environment.js';

/** A local environment; `close` ends its processes. */
export interface LocalThreadEnvironment extends ThreadEnvironment {
  close(): Promise<void>;
}

/** This machine, sandboxed per thread; `cwd` is where sandboxed file operations fall back to. */
export function localThreadEnvironment(options: { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> }): LocalThreadEnvironment {
  const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
  return {
    id: 'local',
    fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: options.cwd, hostEnv: options.env }) }),
    processes,
    env: options.env,
    shell: userShell(options.env),
    close: () => processes.close(),
  };
}

/** The user's shell (`$SHELL`, else bash). */
export function userShell(env: Readonly<Record<string, string | undefined>>): string {
  return env.SHELL !== undefined && env.SHELL !== '' ? env.SHELL : '/bin/bash';
}

/** What the model is told about the host: the shell's name and the IANA time zone. */
export function localHostFacts(env: Readonly<Record<string, string | undefined>>): { readonly shell: string; readonly timezone: string } {
  let timezone: string | undefined;
  return {
    shell: path.basename(userShell(env)),
    // Worked out on first use, and from ICU only when nothing cheaper says: loading its zone data
    // costs ~10 ms of every `exec`'s start (issue #18).
    get timezone(): string {
      if (timezone === undefined) {
        const zone = env.TZ !== undefined && env.TZ !== '' ? env.TZ.replace(/^:/, '') : (systemZoneLink() ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
        timezone = zone === 'UTC' ? 'Etc/UTC' : zone;
      }
      return timezone;
    },
  };
}

/**
 * The zone `/etc/localtime` links to (`…/zoneinfo/Europe/Paris` → `Europe/Paris`), as Codex's
 * iana-time-zone reads it on Linux and macOS; undefined where it is a copy, missing, or elsewhere.
 */
function systemZoneLink(): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const target = readlinkSync('/etc/localtime');
    const zone = /zoneinfo\/(.+)$/.exec(target)?.[1];
    return zone !== undefined && /^[\w+-]+(\/[\w+-]+)*$/.test(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
}
