// Workspace roots as Codex 0.171.0's app-server applies them (probed with cwd /w/ws, a root /w/extra
// and the configured writable root /w/cfg): the entries the model is told, and the legacy policy the
// v2 wire reports.
import { describe, expect, it } from 'vitest';
import { sandboxPolicyFromConfig } from './policy-from-config.js';
import { defaultWorkspaceRoots, legacyWorkspacePolicy, workspaceFileSystemPolicy, workspacePermissionProfile } from './workspace-roots.js';

const config = { sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { writableRoots: ['/w/cfg'] } } as const;
const policy = sandboxPolicyFromConfig(config);
const special = (kind: string, access: string): unknown => ({ path: { type: 'special', value: { kind } }, access });
const at = (path: string, access: string): unknown => ({ path: { type: 'path', path }, access });
const guarded = (root: string): unknown[] => ['.git', '.agents', '.codex', '.aws'].map((name) => ({ path: { type: 'path', path: `${root}/${name}` }, access: 'read', missing_path_behavior: 'skip' }));

describe('defaultWorkspaceRoots', () => {
  it('is the cwd, then the configured writable roots, each once', () => {
    expect(defaultWorkspaceRoots(config, '/w/ws')).toEqual(['/w/ws', '/w/cfg']);
    expect(defaultWorkspaceRoots(config, '/w/cfg')).toEqual(['/w/cfg']);
    expect(defaultWorkspaceRoots({ sandboxMode: 'read-only' }, '/w/ws')).toEqual(['/w/ws']);
  });
});

describe('workspaceFileSystemPolicy', () => {
  it('writes the roots, the temporary places and the configured roots not already roots', () => {
    expect(workspaceFileSystemPolicy(policy, ['/w/ws', '/w/extra']).entries).toEqual([
      special('root', 'read'), at('/w/ws', 'write'), at('/w/extra', 'write'), special('slash_tmp', 'write'), special('tmpdir', 'write'), at('/w/cfg', 'write'),
      guarded('/w/ws')[0], guarded('/w/extra')[0], guarded('/w/ws')[1], guarded('/w/extra')[1], guarded('/w/ws')[2], guarded('/w/extra')[2], guarded('/w/ws')[3], guarded('/w/extra')[3],
    ]);
  });

  it('protects the default roots, the configured ones included, without listing them twice', () => {
    expect(workspaceFileSystemPolicy(policy, defaultWorkspaceRoots(config, '/w/ws')).entries).toEqual([
      special('root', 'read'), at('/w/ws', 'write'), at('/w/cfg', 'write'), special('slash_tmp', 'write'), special('tmpdir', 'write'),
      guarded('/w/ws')[0], guarded('/w/cfg')[0], guarded('/w/ws')[1], guarded('/w/cfg')[1], guarded('/w/ws')[2], guarded('/w/cfg')[2], guarded('/w/ws')[3], guarded('/w/cfg')[3],
    ]);
  });

  it('protects a Windows root in its own convention', () => {
    const entries = workspaceFileSystemPolicy({ type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: true, exclude_slash_tmp: true }, ['C:\\repo']).entries;
    expect(entries).toContainEqual({ path: { type: 'path', path: 'C:\\repo\\.git' }, access: 'read', missing_path_behavior: 'skip' });
  });

  it('leaves a cwd outside the roots unwritable, and reads alone under read-only', () => {
    expect(workspaceFileSystemPolicy(policy, []).entries).toEqual([special('root', 'read'), special('slash_tmp', 'write'), special('tmpdir', 'write'), at('/w/cfg', 'write')]);
    expect(workspaceFileSystemPolicy({ type: 'read-only' }, ['/w/ws']).entries).toEqual([special('root', 'read')]);
    expect(workspacePermissionProfile({ type: 'danger-full-access' }, ['/w/ws'])).toEqual({ type: 'disabled' });
    expect(workspacePermissionProfile(policy, ['/w/ws'])).toMatchObject({ type: 'managed', network: 'restricted' });
  });
});

describe('legacyWorkspacePolicy', () => {
  const base = { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false };

  it('names the roots other than the cwd as writable roots while the cwd is one', () => {
    expect(legacyWorkspacePolicy(policy, '/w/ws', ['/w/ws', '/w/extra'], {})).toEqual({ ...base, writable_roots: ['/w/extra', '/w/cfg'] });
    expect(legacyWorkspacePolicy(policy, '/w/ws', ['/w/extra', '/w/ws'], {})).toEqual({ ...base, writable_roots: ['/w/extra', '/w/cfg'] });
    expect(legacyWorkspacePolicy(policy, '/w/ws', defaultWorkspaceRoots(config, '/w/ws'), {})).toEqual({ ...base, writable_roots: ['/w/cfg'] });
  });

  it('lists every writable place by path once the cwd is left out', () => {
    expect(legacyWorkspacePolicy(policy, '/w/ws', ['/w/extra'], {})).toEqual({ ...base, writable_roots: ['/w/extra', '/tmp', '/w/cfg'], exclude_tmpdir_env_var: true });
    expect(legacyWorkspacePolicy(policy, '/w/ws', ['/w/extra'], { TMPDIR: '/w/tmp' })).toEqual({ ...base, writable_roots: ['/w/extra', '/tmp', '/w/tmp', '/w/cfg'] });
    expect(legacyWorkspacePolicy(policy, '/w/ws', [], {})).toEqual({ ...base, writable_roots: ['/tmp', '/w/cfg'], exclude_tmpdir_env_var: true });
  });

  it('leaves the other policies as they are', () => {
    expect(legacyWorkspacePolicy({ type: 'read-only' }, '/w/ws', ['/w/extra'], {})).toEqual({ type: 'read-only' });
  });
});
