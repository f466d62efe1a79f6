// The mount plan and bubblewrap argv for hand-built rule sets: order, masks, and refusals.
import { describe, expect, it } from 'vitest';
import { bwrapArguments, planMounts } from './bwrap-args.js';
import type { PathRule, ResolvedFileSystem } from './resolve-policy.js';

const rule = (path: string, access: PathRule['access'], state: PathRule['state'] = 'directory', extra: Partial<PathRule> = {}): PathRule => ({
  path,
  access,
  protected: false,
  state,
  ...extra,
});

describe('planMounts', () => {
  it('binds writable roots, re-binds read-only carve-outs and masks hidden or missing paths, shallow to deep', () => {
    const fs: ResolvedFileSystem = {
      kind: 'restricted',
      rootAccess: 'read',
      rules: [
        rule('/w', 'write'),
        rule('/w/.agents', 'read', 'missing', { protected: true, firstMissing: '/w/.agents' }),
        rule('/w/.git', 'read', 'directory', { protected: true }),
        rule('/w/secret', 'deny'),
        rule('/w/token', 'deny', 'file'),
        rule('/w/secret/shared', 'read'),
        rule('/etc/ro-already', 'read'),
        rule('/missing-root', 'write', 'missing', { firstMissing: '/missing-root' }),
      ],
    };
    const plan = planMounts(fs);
    expect(plan).toEqual({
      root: 'ro-bind',
      ops: [
        { op: 'bind', path: '/w' },
        { op: 'mask-dir', path: '/w/.agents', mode: '555', synthetic: true },
        { op: 'ro-bind', path: '/w/.git' },
        { op: 'mask-dir', path: '/w/secret', mode: '111', synthetic: false },
        { op: 'mask-file', path: '/w/token' },
        { op: 'ro-bind', path: '/w/secret/shared' },
      ],
      syntheticTargets: ['/w/.agents'],
    });
    expect(bwrapArguments(plan, ['cmd', '-x'], { shareNetwork: false, seccompFd: 3 })).toEqual([
      '--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--bind', '/w', '/w',
      '--perms', '555', '--tmpfs', '/w/.agents',
      '--ro-bind', '/w/.git', '/w/.git',
      '--perms', '111', '--tmpfs', '/w/secret',
      '--ro-bind', '/dev/null', '/w/token',
      '--ro-bind', '/w/secret/shared', '/w/secret/shared',
      '--proc', '/proc',
      '--remount-ro', '/w/secret', '--remount-ro', '/w/.agents',
      '--seccomp', '3', '--cap-drop', 'ALL', '--', 'cmd', '-x',
    ]);
  });

  it('hides a directory nothing reopens with mode 000', () => {
    const plan = planMounts({ kind: 'restricted', rootAccess: 'read', rules: [rule('/w', 'write'), rule('/w/secret', 'deny')] });
    expect(plan.ops[1]).toEqual({ op: 'mask-dir', path: '/w/secret', mode: '000', synthetic: false });
  });

  it('masks only the first missing component of a deep carve-out', () => {
    const plan = planMounts({ kind: 'restricted', rootAccess: 'read', rules: [rule('/w', 'write'), rule('/w/a/b/c', 'read', 'missing', { firstMissing: '/w/a' })] });
    expect(plan.ops[1]).toEqual({ op: 'mask-dir', path: '/w/a', mode: '555', synthetic: true });
  });

  it('skips missing paths outside writable territory: nothing to read, nothing can create them', () => {
    const plan = planMounts({ kind: 'restricted', rootAccess: 'read', rules: [rule('/nowhere', 'deny', 'missing', { firstMissing: '/nowhere' })] });
    expect(plan.ops).toEqual([]);
  });

  it('refuses a carve-out behind a symlink inside a writable root', () => {
    const fs: ResolvedFileSystem = { kind: 'restricted', rootAccess: 'read', rules: [rule('/w', 'write'), rule('/w/.codex', 'read', 'symlink', { writableSymlink: '/w/.codex', protected: true })] };
    expect(() => planMounts(fs)).toThrow(expect.objectContaining({ code: 'UnenforceablePath' }) as Error);
  });

  it('starts from an empty read-only root when the root is not readable', () => {
    const plan = planMounts({ kind: 'restricted', rootAccess: 'deny', rules: [rule('/usr', 'read'), rule('/w', 'write')] });
    const args = bwrapArguments(plan, ['true'], { shareNetwork: true });
    expect(args.slice(5, 14)).toEqual(['--tmpfs', '/', '--dev', '/dev', '--ro-bind', '/usr', '/usr', '--bind', '/w']);
    expect(args).not.toContain('--unshare-net');
    expect(args.slice(-6)).toEqual(['--remount-ro', '/', '--cap-drop', 'ALL', '--', 'true']);
  });

  it('binds the whole filesystem when only the network is restricted', () => {
    const args = bwrapArguments(planMounts({ kind: 'unrestricted' }), ['true'], { shareNetwork: false, seccompFd: 3 });
    expect(args).toContain('--unshare-net');
    expect(args.slice(6, 9)).toEqual(['--bind', '/', '/']);
  });
});
