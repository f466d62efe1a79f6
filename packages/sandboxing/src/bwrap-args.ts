// Renders resolved path rules as a bubblewrap command line: a read-only (or empty) root, writable binds,
// read-only and hidden carve-outs layered shallow to deep so the most specific rule wins, masks for
// protected paths that do not exist yet, fresh /dev and /proc, and the namespaces to unshare.
import { SandboxUnavailableError } from './sandbox-error.js';
import { isWithin, type ResolvedFileSystem, type RuleAccess } from './resolve-policy.js';

/** One mount bubblewrap performs, in order. */
export type MountOp =
  | { readonly op: 'bind'; readonly path: string }
  | { readonly op: 'ro-bind'; readonly path: string }
  /**
   * An empty tmpfs with `mode`, remounted read-only once every mount is in place: `555` for a
   * read-only mask, `000` for a hidden directory, `111` for a hidden directory a deeper rule reopens
   * (traversable, not listable).
   */
  | { readonly op: 'mask-dir'; readonly path: string; readonly mode: '555' | '000' | '111'; readonly synthetic: boolean }
  /** `/dev/null` bound read-only over a file. */
  | { readonly op: 'mask-file'; readonly path: string };

/** What bubblewrap must build. */
export interface MountPlan {
  readonly root: 'ro-bind' | 'bind' | 'tmpfs';
  readonly ops: readonly MountOp[];
  /**
   * Mask targets bubblewrap creates as empty directories on the host (protected paths that did not
   * exist inside a writable root). They are removed after the sandbox exits.
   */
  readonly syntheticTargets: readonly string[];
}

/**
 * Plans the mounts for `fileSystem`. Throws `UnenforceablePath` when a read-only or hidden path is
 * reached through a symlink inside a writable root: bubblewrap cannot mount over the link, and the
 * command could replace it (Codex 0.171.0 refuses the same case).
 */
export function planMounts(fileSystem: ResolvedFileSystem): MountPlan {
  if (fileSystem.kind === 'unrestricted') return { root: 'bind', ops: [], syntheticTargets: [] };
  const ops: MountOp[] = [];
  const applied: { path: string; access: RuleAccess }[] = [];
  const parentAccess = (target: string): RuleAccess => {
    let best: { path: string; access: RuleAccess } | undefined;
    for (const entry of applied) if (isWithin(target, entry.path) && (best === undefined || entry.path.length > best.path.length)) best = entry;
    return best?.access ?? fileSystem.rootAccess;
  };

  const reopened = (target: string): boolean => fileSystem.rules.some((other) => other.path !== target && other.access !== 'deny' && isWithin(other.path, target));
  for (const rule of fileSystem.rules) {
    const parent = parentAccess(rule.path);
    if (rule.access === parent) continue;
    if (rule.writableSymlink !== undefined && parent === 'write') {
      throw new SandboxUnavailableError(
        'UnenforceablePath',
        `cannot keep '${rule.path}' ${rule.access === 'deny' ? 'hidden' : 'read-only'}: '${rule.writableSymlink}' is a symlink inside a writable root, which the sandbox cannot pin`,
        `Replace the symlink '${rule.writableSymlink}' with a real directory (or remove it), or run with a read-only sandbox`,
      );
    }
    const missing = rule.state === 'missing';
    switch (rule.access) {
      case 'write':
        if (missing) continue;
        ops.push({ op: 'bind', path: rule.path });
        break;
      case 'read':
        if (missing) {
          // Nothing to read; inside a writable area it must not be creatable either.
          if (parent !== 'write' || rule.firstMissing === undefined) continue;
          ops.push({ op: 'mask-dir', path: rule.firstMissing, mode: '555', synthetic: true });
        } else {
          ops.push({ op: 'ro-bind', path: rule.path });
        }
        break;
      case 'deny':
        if (missing) {
          if (parent !== 'write' || rule.firstMissing === undefined) continue;
          ops.push({ op: 'mask-dir', path: rule.firstMissing, mode: '000', synthetic: true });
        } else if (rule.state === 'directory') {
          ops.push({ op: 'mask-dir', path: rule.path, mode: reopened(rule.path) ? '111' : '000', synthetic: false });
        } else {
          ops.push({ op: 'mask-file', path: rule.path });
        }
        break;
    }
    applied.push({ path: rule.path, access: rule.access });
  }
  const root = fileSystem.rootAccess === 'write' ? 'bind' : fileSystem.rootAccess === 'read' ? 'ro-bind' : 'tmpfs';
  const syntheticTargets = ops.flatMap((op) => (op.op === 'mask-dir' && op.synthetic ? [op.path] : []));
  return { root, ops, syntheticTargets };
}

/** Options of {@link bwrapArguments}. */
export interface BwrapArgumentOptions {
  /** Keep the host network namespace. */
  readonly shareNetwork: boolean;
  /** The fd bubblewrap reads a seccomp program from, if any. */
  readonly seccompFd?: number | undefined;
}

/** The bubblewrap arguments (without the program name) that run `command` under `plan`. */
export function bwrapArguments(plan: MountPlan, command: readonly string[], options: BwrapArgumentOptions): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc'];
  if (!options.shareNetwork) args.push('--unshare-net');
  switch (plan.root) {
    case 'bind':
      args.push('--bind', '/', '/');
      break;
    case 'ro-bind':
      args.push('--ro-bind', '/', '/');
      break;
    case 'tmpfs':
      args.push('--tmpfs', '/');
      break;
  }
  args.push('--dev', '/dev');
  const remount: string[] = [];
  for (const op of plan.ops) {
    switch (op.op) {
      case 'bind':
        args.push('--bind', op.path, op.path);
        break;
      case 'ro-bind':
        args.push('--ro-bind', op.path, op.path);
        break;
      case 'mask-dir':
        args.push('--perms', op.mode, '--tmpfs', op.path);
        remount.push(op.path);
        break;
      case 'mask-file':
        args.push('--ro-bind', '/dev/null', op.path);
        break;
    }
  }
  args.push('--proc', '/proc');
  // Deferred so deeper mounts can still create their mount points inside a mask.
  for (const target of remount.reverse()) args.push('--remount-ro', target);
  if (plan.root === 'tmpfs') args.push('--remount-ro', '/');
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  args.push('--cap-drop', 'ALL', '--', ...command);
  return args;
}
