// Rule resolution on real temporary directories: most-specific-entry-wins, protected paths (with the
// gitdir a pointer file names), symlinks the command could replace, and forms that cannot be enforced.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystemSandboxPolicy } from '@skein/protocol';
import { SandboxUnavailableError } from './sandbox-error.js';
import { accessAt, resolveSandboxPolicy, type PathRule, type ResolvedFileSystem } from './resolve-policy.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-resolve-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entry = (target: string, access: 'read' | 'write' | 'deny'): FileSystemSandboxPolicy['entries'][number] => ({ path: { type: 'path', path: target }, access });
const rootRead = { path: { type: 'special' as const, value: { kind: 'root' as const } }, access: 'read' as const };

function resolveSplit(entries: FileSystemSandboxPolicy['entries'], cwd = root): ResolvedFileSystem {
  return resolveSandboxPolicy(
    { policy: { type: 'read-only' }, fileSystemPolicy: { kind: 'restricted', entries }, cwd, env: {} },
    { platform: 'linux' },
  ).fileSystem;
}

const rulesOf = (fileSystem: ResolvedFileSystem): readonly PathRule[] => (fileSystem.kind === 'restricted' ? fileSystem.rules : []);

describe('most specific entry wins', () => {
  it('alternates write / deny / write down one path', () => {
    const repo = path.join(root, 'repo');
    mkdirSync(path.join(repo, 'a', 'b', 'c'), { recursive: true });
    const fs = resolveSplit([rootRead, entry(repo, 'write'), entry(path.join(repo, 'a'), 'deny'), entry(path.join(repo, 'a', 'b'), 'write')]);
    expect(accessAt(fs, '/etc/passwd')).toBe('read');
    expect(accessAt(fs, path.join(repo, 'file'))).toBe('write');
    expect(accessAt(fs, path.join(repo, 'a'))).toBe('deny');
    expect(accessAt(fs, path.join(repo, 'a', 'other'))).toBe('deny');
    expect(accessAt(fs, path.join(repo, 'a', 'b', 'c', 'd'))).toBe('write');
    expect(accessAt(fs, path.join(repo, 'ab'))).toBe('write');
  });

  it('breaks ties at one path as deny over write over read, whatever the order', () => {
    const dir = path.join(root, 'd');
    mkdirSync(dir);
    for (const order of [['read', 'write', 'deny'], ['deny', 'write', 'read'], ['write', 'read', 'deny']] as const) {
      expect(accessAt(resolveSplit([rootRead, ...order.map((access) => entry(dir, access))]), dir)).toBe('deny');
    }
    expect(accessAt(resolveSplit([rootRead, entry(dir, 'read'), entry(dir, 'write')]), dir)).toBe('write');
  });

  it('denies everything but the listed paths when the root is not readable', () => {
    const fs = resolveSplit([entry(root, 'read')]);
    expect(accessAt(fs, '/etc/passwd')).toBe('deny');
    expect(accessAt(fs, path.join(root, 'x'))).toBe('read');
  });

  it('treats a writable root with nothing narrower as no filesystem restriction', () => {
    const fs = resolveSplit([{ path: { type: 'special', value: { kind: 'root' } }, access: 'write' }]);
    expect(fs).toEqual({ kind: 'unrestricted' });
  });
});

describe('protected paths under writable roots', () => {
  it('adds .git, .agents, .codex and .aws of every writable root, read-only, present or not', () => {
    mkdirSync(path.join(root, '.git'));
    const fs = resolveSplit([rootRead, entry(root, 'write')]);
    const protectedRules = rulesOf(fs).filter((rule) => rule.protected && rule.path.startsWith(root));
    expect(protectedRules.map((rule) => [path.basename(rule.path), rule.state])).toEqual([
      ['.agents', 'missing'],
      ['.aws', 'missing'],
      ['.codex', 'missing'],
      ['.git', 'directory'],
    ]);
    expect(accessAt(fs, path.join(root, '.git', 'hooks', 'pre-commit'))).toBe('read');
    expect(accessAt(fs, path.join(root, 'src'))).toBe('write');
  });

  it('protects the gitdir a .git pointer file names, and the pointer file itself', () => {
    const gitdir = path.join(root, 'main', '.git', 'worktrees', 'wt');
    const work = path.join(root, 'wt');
    mkdirSync(gitdir, { recursive: true });
    mkdirSync(work);
    writeFileSync(path.join(work, '.git'), 'gitdir: ../main/.git/worktrees/wt\n');
    const fs = resolveSplit([rootRead, entry(work, 'write'), entry(path.join(root, 'main'), 'write')]);
    expect(rulesOf(fs).find((rule) => rule.path === path.join(work, '.git'))).toMatchObject({ access: 'read', state: 'file', protected: true });
    expect(accessAt(fs, path.join(gitdir, 'HEAD'))).toBe('read');
    expect(accessAt(fs, path.join(root, 'main', 'README'))).toBe('write');
  });

  it('keeps protection sticky against a grant below it', () => {
    mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    const fs = resolveSplit([rootRead, entry(root, 'write'), entry(path.join(root, '.git', 'hooks'), 'write')]);
    expect(accessAt(fs, path.join(root, '.git', 'hooks', 'x'))).toBe('read');
  });

  it('notes a protected path that is a symlink inside a writable root instead of following it', () => {
    mkdirSync(path.join(root, 'decoy'));
    symlinkSync(path.join(root, 'decoy'), path.join(root, '.codex'));
    const rule = rulesOf(resolveSplit([rootRead, entry(root, 'write')])).find((candidate) => candidate.path === path.join(root, '.codex'));
    expect(rule).toMatchObject({ state: 'symlink', writableSymlink: path.join(root, '.codex'), access: 'read' });
  });

  it('follows symlinks outside writable territory to their target', () => {
    const real = path.join(root, 'real');
    mkdirSync(path.join(real, 'secret'), { recursive: true });
    symlinkSync(real, path.join(root, 'alias'));
    const fs = resolveSplit([rootRead, entry(path.join(root, 'alias', 'secret'), 'deny')]);
    expect(rulesOf(fs)).toEqual([{ path: path.join(real, 'secret'), access: 'deny', protected: false, state: 'directory' }]);
  });
});

describe('special paths and unenforceable forms', () => {
  it('resolves project_roots against the cwd and tmpdir against the request env', () => {
    const tmp = path.join(root, 'tmp');
    mkdirSync(tmp);
    const fs = resolveSandboxPolicy(
      {
        policy: { type: 'read-only' },
        fileSystemPolicy: {
          kind: 'restricted',
          entries: [rootRead, { path: { type: 'special', value: { kind: 'project_roots', subpath: 'sub' } }, access: 'write' }, { path: { type: 'special', value: { kind: 'tmpdir' } }, access: 'write' }],
        },
        cwd: root,
        env: { TMPDIR: tmp },
      },
      { platform: 'linux' },
    ).fileSystem;
    expect(accessAt(fs, path.join(root, 'sub', 'x'))).toBe('write');
    expect(accessAt(fs, path.join(tmp, 'x'))).toBe('write');
    expect(accessAt(fs, path.join(root, 'other'))).toBe('read');
  });

  it('rejects a project-root subpath that leaves the cwd', () => {
    const attempt = (): unknown => resolveSplit([{ path: { type: 'special', value: { kind: 'project_roots', subpath: '../..' } }, access: 'write' }]);
    expect(attempt).toThrow(SandboxUnavailableError);
  });

  it('refuses glob entries and denials of unknown special paths, but ignores unknown grants', () => {
    expect(() => resolveSplit([rootRead, { path: { type: 'glob_pattern', pattern: '**/*.env' }, access: 'deny' }])).toThrow(/glob/);
    expect(() => resolveSplit([rootRead, { path: { type: 'special', value: { kind: 'unknown', path: ':future' } }, access: 'deny' }])).toThrow(/unknown special path/);
    expect(rulesOf(resolveSplit([rootRead, { path: { type: 'special', value: { kind: 'unknown', path: ':future' } }, access: 'write' }]))).toEqual([]);
  });

  it('declares no filesystem restriction for danger-full-access and external sandboxes', () => {
    const full = resolveSandboxPolicy({ policy: { type: 'danger-full-access' }, cwd: root, env: {} }, { platform: 'linux' });
    expect(full).toEqual({ fileSystem: { kind: 'unrestricted' }, network: 'enabled', external: false });
    const external = resolveSandboxPolicy({ policy: { type: 'external-sandbox', network_access: 'restricted' }, cwd: root, env: {} }, { platform: 'linux' });
    expect(external.external).toBe(true);
  });

  it('rejects a relative cwd', () => {
    expect(() => resolveSandboxPolicy({ policy: { type: 'read-only' }, cwd: 'rel', env: {} }, { platform: 'linux' })).toThrow(/absolute/);
  });
});
