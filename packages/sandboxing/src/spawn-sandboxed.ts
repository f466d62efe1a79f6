// Spawning a SpawnSpec correctly: the extra fds plumbed as pipes and closed after writing, the mask
// bookkeeping released when the child is gone, and a variant that needs no extra fds (for PTYs).
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import { releaseMountTargets } from './mount-targets.js';
import type { SpawnSpec } from './prepare-spawn.js';
import { SandboxUnavailableError } from './sandbox-error.js';

/** Options of {@link spawnSandboxed}. */
export interface SpawnSandboxedOptions {
  readonly cwd: string;
  /** The child's environment; `spec.env` is layered on top. Undefined values are dropped. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** stdin, stdout, stderr (default `pipe` each); the extra fds are appended. */
  readonly stdio?: readonly ['pipe' | 'inherit' | 'ignore', 'pipe' | 'inherit' | 'ignore', 'pipe' | 'inherit' | 'ignore'];
  readonly detached?: boolean;
}

/** Releases what {@link prepareSandboxedSpawn} registered for `spec`; call once the child has exited. */
export function releaseSandboxSpawn(spec: SpawnSpec): void {
  if (spec.mountTargets !== undefined) releaseMountTargets(spec.mountTargets);
}

/** Spawns `spec`: writes each extra fd's bytes into its pipe and ends it, releases bookkeeping on exit. */
export function spawnSandboxed(spec: SpawnSpec, options: SpawnSandboxedOptions): ChildProcess {
  const [program, ...args] = spec.argv;
  if (program === undefined) throw new SandboxUnavailableError('InvalidRequest', 'the spawn spec has an empty argv', 'Prepare the spec with prepareSandboxedSpawn');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, spec.env);
  const stdio: StdioOptions = [...(options.stdio ?? ['pipe', 'pipe', 'pipe']), ...spec.extraFds.map(() => 'pipe' as const)];
  const child = spawn(program, args, { cwd: options.cwd, env, stdio, detached: options.detached ?? false });
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    releaseSandboxSpawn(spec);
  };
  child.once('close', release);
  child.once('error', release);
  spec.extraFds.forEach((bytes, index) => {
    const pipe = child.stdio[3 + index] as Writable | null | undefined;
    if (pipe === null || pipe === undefined) return;
    // bwrap may die before reading (bad arguments): its exit status reports that, not an EPIPE.
    pipe.on('error', () => undefined);
    pipe.end(Buffer.from(bytes));
  });
  return child;
}

/**
 * The same spec with its extra fds carried in argv: `/bin/sh` pipes the bytes (as printf octal
 * escapes) into fd 3 and execs the program, keeping stdin. For spawners that cannot pass extra fds,
 * such as a PTY. Supports one extra fd, which is all {@link prepareSandboxedSpawn} produces.
 */
export function inlineExtraFds(spec: SpawnSpec): SpawnSpec {
  if (spec.extraFds.length === 0) return spec;
  if (spec.extraFds.length > 1) throw new SandboxUnavailableError('InvalidRequest', 'only one extra fd can be inlined', 'Spawn with spawnSandboxed instead');
  const bytes = spec.extraFds[0]!;
  const escaped = Array.from(bytes, (byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
  // fd 4 keeps the real stdin while the pipeline's stdin carries the bytes; the group moves them to 3.
  const script = `exec 4<&0; printf '${escaped}' | { exec 3<&0 0<&4 4<&-; exec "$@"; }`;
  return { ...spec, argv: ['/bin/sh', '-c', script, 'skein-sandbox', ...spec.argv], extraFds: [] };
}
