// The internal permission types read exactly what Codex 0.171.0 wrote into `turn_context` lines, and
// write it back unchanged.
import { describe, expect, it } from 'vitest';
import {
  CoreSandboxPolicy,
  FileSystemAccessMode,
  FileSystemSandboxPolicy,
  FileSystemSpecialPath,
  PermissionProfile,
} from './sandbox-policy.js';

const special = (kind: string): unknown => ({ path: { type: 'special', value: { kind } }, access: 'write' });
const protectedEntry = (path: string): unknown => ({ path: { type: 'path', path }, access: 'read', missing_path_behavior: 'skip' });

// Recorded from Codex 0.171.0 (`sandbox_mode = "workspace-write"`, cwd /opt/ws1).
const workspaceEntries = [
  { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
  { path: { type: 'path', path: '/opt/ws1' }, access: 'write' },
  special('slash_tmp'),
  special('tmpdir'),
  protectedEntry('/opt/ws1/.git'),
  protectedEntry('/opt/ws1/.agents'),
  protectedEntry('/opt/ws1/.codex'),
  protectedEntry('/opt/ws1/.aws'),
];

describe('CoreSandboxPolicy', () => {
  it('round-trips the forms Codex writes', () => {
    const forms = [
      { type: 'danger-full-access' },
      { type: 'read-only' },
      { type: 'read-only', network_access: true },
      { type: 'external-sandbox', network_access: 'enabled' },
      { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
      { type: 'workspace-write', writable_roots: ['/opt/extra'], network_access: true, exclude_tmpdir_env_var: false, exclude_slash_tmp: true },
    ];
    for (const form of forms) expect(CoreSandboxPolicy.parse(form)).toEqual(form);
  });

  it('fills serde defaults for a sparse workspace-write policy', () => {
    expect(CoreSandboxPolicy.parse({ type: 'workspace-write' })).toEqual({
      type: 'workspace-write',
      network_access: false,
      exclude_tmpdir_env_var: false,
      exclude_slash_tmp: false,
    });
  });

  it('rejects the camelCase app-server form and relative writable roots', () => {
    expect(CoreSandboxPolicy.safeParse({ type: 'workspaceWrite' }).success).toBe(false);
    expect(CoreSandboxPolicy.safeParse({ type: 'workspace-write', writable_roots: ['rel/dir'] }).success).toBe(false);
    expect(CoreSandboxPolicy.safeParse({ type: 'workspace-write', writable_roots: ['/a\0b'] }).success).toBe(false);
  });
});

describe('FileSystemSandboxPolicy', () => {
  it('reads the recorded workspace-write split policy unchanged', () => {
    const recorded = { kind: 'restricted', entries: workspaceEntries };
    expect(FileSystemSandboxPolicy.parse(recorded)).toEqual(recorded);
  });

  it('reads glob patterns, the scan depth and deny entries', () => {
    const recorded = {
      kind: 'restricted',
      glob_scan_max_depth: 3,
      entries: [
        { path: { type: 'glob_pattern', pattern: '/opt/ws1/**/*.env' }, access: 'deny' },
        { path: { type: 'path', path: '/opt/ws1' }, access: 'write' },
      ],
    };
    expect(FileSystemSandboxPolicy.parse(recorded)).toEqual(recorded);
  });

  it('defaults entries to empty for the unrestricted kinds', () => {
    expect(FileSystemSandboxPolicy.parse({ kind: 'unrestricted' })).toEqual({ kind: 'unrestricted', entries: [] });
    expect(FileSystemSandboxPolicy.parse({ kind: 'external-sandbox' }).entries).toEqual([]);
  });

  it('accepts Windows absolute paths, since a policy may come from another machine', () => {
    const policy = FileSystemSandboxPolicy.parse({ kind: 'restricted', entries: [{ path: { type: 'path', path: 'C:\\repo' }, access: 'write' }] });
    expect(policy.entries[0]?.path).toEqual({ type: 'path', path: 'C:\\repo' });
  });
});

describe('FileSystemAccessMode and FileSystemSpecialPath aliases', () => {
  it('reads the config spelling none as deny', () => {
    expect(FileSystemAccessMode.parse('none')).toBe('deny');
    expect(FileSystemAccessMode.parse('deny')).toBe('deny');
    expect(FileSystemAccessMode.safeParse('execute').success).toBe(false);
  });

  it('reads current_working_directory as project_roots', () => {
    expect(FileSystemSpecialPath.parse({ kind: 'current_working_directory' })).toEqual({ kind: 'project_roots' });
    expect(FileSystemSpecialPath.parse({ kind: 'project_roots', subpath: '.git' })).toEqual({ kind: 'project_roots', subpath: '.git' });
  });
});

describe('PermissionProfile', () => {
  it('round-trips managed, disabled and external profiles', () => {
    const forms = [
      { type: 'managed', file_system: { type: 'restricted', entries: workspaceEntries }, network: 'restricted' },
      { type: 'managed', file_system: { type: 'restricted', entries: [], glob_scan_max_depth: 3 }, network: 'enabled' },
      { type: 'managed', file_system: { type: 'unrestricted' }, network: 'restricted' },
      { type: 'disabled' },
      { type: 'external', network: 'restricted' },
    ];
    for (const form of forms) expect(PermissionProfile.parse(form)).toEqual(form);
  });

  it('rejects a managed profile without network', () => {
    expect(PermissionProfile.safeParse({ type: 'managed', file_system: { type: 'unrestricted' } }).success).toBe(false);
  });
});
