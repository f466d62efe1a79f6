// Shared fixtures of the executor conformance suite: scratch directories, sandbox contexts, and
// helpers that wait for a process's events. Everything here touches real files and processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import {
  FileSystemSandboxContext,
  type ExecutorFileSystem,
  type ExecutorProcesses,
  type ProcessEvent,
} from '../../src/index.js';

/** One executor under test: its filesystem, a fresh process table, and how to release both. */
export interface ExecutorUnderTest {
  readonly fileSystem: ExecutorFileSystem;
  readonly processes: ExecutorProcesses;
  close(): Promise<void>;
}

/** What the suite runs against. */
export interface ConformanceTarget {
  readonly name: string;
  open(): Promise<ExecutorUnderTest>;
}

/** Empty when bubblewrap works here; otherwise the probe's reason, appended to skipped test names. */
export const { skip: SANDBOX_SKIP, capability: SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

const chattr = spawnSync('chattr', ['--help'], { stdio: 'ignore' });
/** Empty when `chattr +i` can be tried here. */
export const CHATTR_SKIP = chattr.error === undefined ? '' : ' (skipped: chattr is not installed)';

/** A scratch directory (canonical, so symlinked temp roots do not confuse comparisons). */
export class Scratch {
  readonly dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-conformance-')));
  private readonly immutable: string[] = [];

  /** Native path of `relative` inside the scratch directory. */
  path(relative = ''): string {
    return path.join(this.dir, relative);
  }

  /** URI of `relative` inside the scratch directory. */
  uri(relative = ''): PathUri {
    return PathUri.fromNativePath(this.path(relative), 'posix');
  }

  /** Marks a file immutable (`chattr +i`): even root gets EPERM writing or removing it. Returns false where unsupported. */
  makeImmutable(relative: string): boolean {
    try {
      execFileSync('chattr', ['+i', this.path(relative)], { stdio: 'ignore' });
      this.immutable.push(this.path(relative));
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    for (const file of this.immutable) execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
    // chmod'ed fixtures must be writable again before they can be removed; `rm` copes with names
    // that are not UTF-8, which Node's own recursive removal cannot address.
    spawnSync('chmod', ['-R', 'u+rwX', this.dir], { stdio: 'ignore' });
    spawnSync('rm', ['-rf', this.dir], { stdio: 'ignore' });
  }
}

/**
 * A managed sandbox context: the whole disk readable, `writable` writable, plus `extra` policy entries.
 */
export function sandboxContext(writable: PathUri, extra: readonly object[] = [], network: 'restricted' | 'enabled' = 'restricted'): FileSystemSandboxContext {
  return FileSystemSandboxContext.parse({
    permissions: {
      type: 'managed',
      network,
      file_system: {
        type: 'restricted',
        entries: [
          { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
          { path: { type: 'path', path: writable.toString() }, access: 'write' },
          ...extra,
        ],
      },
    },
    cwd: writable.toString(),
    windowsSandboxLevel: 'disabled',
  });
}

/** A policy entry denying all access to `target`. */
export function denyEntry(target: PathUri): object {
  return { path: { type: 'path', path: target.toString() }, access: 'deny' };
}

/** Events of one process, recorded from before it starts until it has closed. */
export class ProcessRecorder {
  readonly events: ProcessEvent[] = [];
  private readonly done: Promise<void>;
  private readonly unsubscribe: () => void;

  constructor(processes: ExecutorProcesses, readonly processId: string) {
    let finish: () => void = () => undefined;
    this.done = new Promise((resolve) => {
      finish = resolve;
    });
    this.unsubscribe = processes.subscribe((event) => {
      if (event.processId !== processId) return;
      this.events.push(event);
      if (event.type === 'closed') finish();
    });
  }

  /** Resolves once the process has closed. */
  async closed(): Promise<this> {
    await this.done;
    this.unsubscribe();
    return this;
  }

  /** All output of `stream` (or every stream), as text. */
  text(stream?: 'stdout' | 'stderr' | 'pty'): string {
    const parts = this.events.flatMap((event) => (event.type === 'output' && (stream === undefined || event.stream === stream) ? [event.chunk] : []));
    return Buffer.concat(parts).toString('utf8');
  }

  /** The exit event. */
  exit(): Extract<ProcessEvent, { type: 'exited' }> {
    const exited = this.events.find((event): event is Extract<ProcessEvent, { type: 'exited' }> => event.type === 'exited');
    if (exited === undefined) throw new Error(`process ${this.processId} reported no exit`);
    return exited;
  }
}

/** True while a process with this pid runs (a zombie awaiting its reaper counts as gone). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name, which may itself contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `condition` until it holds; the test's own timeout bounds the wait. */
export async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The minimal environment tests give processes. */
export const TEST_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin' } as const;
