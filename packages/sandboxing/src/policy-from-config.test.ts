// The config → policy mapping, and the split policy / permission profile Codex 0.171.0 records for it,
// compared with what Codex itself wrote (cwd /opt/ws1, writable_roots /opt/extra and /opt/extra2).
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_PERMISSION_PROFILES,
  fileSystemPolicyFromSandboxPolicy,
  networkPolicyOf,
  permissionProfileFromSandboxPolicy,
  sandboxPolicyFromConfig,
} from './policy-from-config.js';

const special = (kind: string, access: string): unknown => ({ path: { type: 'special', value: { kind } }, access });
const at = (path: string, access: string): unknown => ({ path: { type: 'path', path }, access });
const guarded = (path: string): unknown => ({ path: { type: 'path', path }, access: 'read', missing_path_behavior: 'skip' });

describe('sandboxPolicyFromConfig', () => {
  it('maps each sandbox_mode', () => {
    expect(sandboxPolicyFromConfig({ sandboxMode: 'read-only' })).toEqual({ type: 'read-only' });
    expect(sandboxPolicyFromConfig({ sandboxMode: 'danger-full-access' })).toEqual({ type: 'danger-full-access' });
    expect(sandboxPolicyFromConfig({ sandboxMode: 'workspace-write' })).toEqual({
      type: 'workspace-write',
      network_access: false,
      exclude_tmpdir_env_var: false,
      exclude_slash_tmp: false,
    });
  });

  it('carries [sandbox_workspace_write] into workspace-write only', () => {
    const table = { writableRoots: ['/opt/extra'], networkAccess: true, excludeTmpdirEnvVar: true, excludeSlashTmp: true };
    expect(sandboxPolicyFromConfig({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: table })).toEqual({
      type: 'workspace-write',
      writable_roots: ['/opt/extra'],
      network_access: true,
      exclude_tmpdir_env_var: true,
      exclude_slash_tmp: true,
    });
    expect(sandboxPolicyFromConfig({ sandboxMode: 'read-only', sandboxWorkspaceWrite: table })).toEqual({ type: 'read-only' });
  });

  it('accepts the Config object itself (its sandbox fields have the same names)', () => {
    const config = { sandboxMode: 'workspace-write' as const, sandboxWorkspaceWrite: { writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: true }, model: 'x' };
    expect(sandboxPolicyFromConfig(config)).toMatchObject({ type: 'workspace-write', exclude_slash_tmp: true });
  });
});

describe('networkPolicyOf', () => {
  it('reads the network decision of every policy', () => {
    expect(networkPolicyOf({ type: 'danger-full-access' })).toBe('enabled');
    expect(networkPolicyOf({ type: 'read-only' })).toBe('restricted');
    expect(networkPolicyOf({ type: 'read-only', network_access: true })).toBe('enabled');
    expect(networkPolicyOf({ type: 'external-sandbox', network_access: 'restricted' })).toBe('restricted');
    expect(networkPolicyOf(BUILT_IN_PERMISSION_PROFILES[':workspace'])).toBe('restricted');
  });
});

describe('fileSystemPolicyFromSandboxPolicy', () => {
  it('lists the workspace-write entries in the order Codex 0.171.0 records them', () => {
    const policy = sandboxPolicyFromConfig({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { writableRoots: ['/opt/extra', '/opt/extra2'] } });
    expect(fileSystemPolicyFromSandboxPolicy(policy, '/opt/ws1')).toEqual({
      kind: 'restricted',
      entries: [
        special('root', 'read'),
        at('/opt/ws1', 'write'),
        at('/opt/extra', 'write'),
        at('/opt/extra2', 'write'),
        special('slash_tmp', 'write'),
        special('tmpdir', 'write'),
        at('/opt/extra', 'write'),
        at('/opt/extra2', 'write'),
        guarded('/opt/ws1/.git'),
        guarded('/opt/extra/.git'),
        guarded('/opt/extra2/.git'),
        guarded('/opt/ws1/.agents'),
        guarded('/opt/extra/.agents'),
        guarded('/opt/extra2/.agents'),
        guarded('/opt/ws1/.codex'),
        guarded('/opt/extra/.codex'),
        guarded('/opt/extra2/.codex'),
        guarded('/opt/ws1/.aws'),
        guarded('/opt/extra/.aws'),
        guarded('/opt/extra2/.aws'),
      ],
    });
  });

  it('leaves out /tmp and $TMPDIR when excluded', () => {
    const policy = sandboxPolicyFromConfig({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { excludeSlashTmp: true, excludeTmpdirEnvVar: true } });
    const kinds = fileSystemPolicyFromSandboxPolicy(policy, '/w').entries.map((entry) => (entry.path.type === 'special' ? entry.path.value.kind : entry.path.type));
    expect(kinds).toEqual(['root', 'path', 'path', 'path', 'path', 'path']);
  });

  it('gives read-only a readable root only, and the full-access kinds no entries', () => {
    expect(fileSystemPolicyFromSandboxPolicy({ type: 'read-only' }, '/w')).toEqual({ kind: 'restricted', entries: [special('root', 'read')] });
    expect(fileSystemPolicyFromSandboxPolicy({ type: 'danger-full-access' }, '/w')).toEqual({ kind: 'unrestricted', entries: [] });
    expect(fileSystemPolicyFromSandboxPolicy({ type: 'external-sandbox', network_access: 'enabled' }, '/w')).toEqual({ kind: 'external-sandbox', entries: [] });
  });
});

describe('permissionProfileFromSandboxPolicy', () => {
  it('records the profiles Codex writes into turn_context', () => {
    expect(permissionProfileFromSandboxPolicy({ type: 'danger-full-access' }, '/w')).toEqual({ type: 'disabled' });
    expect(permissionProfileFromSandboxPolicy({ type: 'external-sandbox', network_access: 'restricted' }, '/w')).toEqual({ type: 'external', network: 'restricted' });
    expect(permissionProfileFromSandboxPolicy({ type: 'read-only' }, '/opt/ws1')).toEqual({
      type: 'managed',
      file_system: { type: 'restricted', entries: [special('root', 'read')] },
      network: 'restricted',
    });
    const workspace = permissionProfileFromSandboxPolicy({ type: 'workspace-write', network_access: true, exclude_slash_tmp: false, exclude_tmpdir_env_var: false }, '/opt/ws1');
    expect(workspace).toMatchObject({ type: 'managed', network: 'enabled', file_system: { type: 'restricted' } });
  });
});
