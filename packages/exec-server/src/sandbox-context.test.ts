import { describe, expect, it } from 'vitest';
import { FileSystemSandboxContext, sandboxConfinesProcess, sandboxRestricts } from './sandbox-context.js';

const root = { path: { type: 'special', value: { kind: 'root' } } };
function context(permissions: unknown): FileSystemSandboxContext {
  return FileSystemSandboxContext.parse({ permissions, cwd: 'file:///repo', windowsSandboxLevel: 'disabled' });
}
const restricted = (entries: unknown[], network = 'restricted') => context({ type: 'managed', network, file_system: { type: 'restricted', entries } });

describe('FileSystemSandboxContext', () => {
  it('reads Codex’s wire form, with file: URIs and snake_case profile fields', () => {
    const parsed = restricted([{ ...root, access: 'read' }, { path: { type: 'path', path: 'file:///repo' }, access: 'write' }]);
    expect(parsed.cwd?.toString()).toBe('file:///repo');
    const permissions = parsed.permissions;
    expect(permissions.type === 'managed' && permissions.file_system.type === 'restricted' && permissions.file_system.entries[1]?.path).toMatchObject({ type: 'path' });
  });

  it('rejects native paths, camelCase profile fields and unknown variants, as Codex does', () => {
    const base = { windowsSandboxLevel: 'disabled' };
    expect(FileSystemSandboxContext.safeParse({ ...base, permissions: { type: 'disabled' }, cwd: '/repo' }).success).toBe(false);
    expect(FileSystemSandboxContext.safeParse({ ...base, permissions: { type: 'managed', fileSystem: { type: 'unrestricted' }, network: 'restricted' } }).success).toBe(false);
    expect(FileSystemSandboxContext.safeParse({ ...base, permissions: { type: 'sometimes' } }).success).toBe(false);
    expect(FileSystemSandboxContext.safeParse({ permissions: { type: 'disabled' } }).success).toBe(false);
  });
});

describe('sandboxRestricts / sandboxConfinesProcess', () => {
  it('confines a restricted profile without full-disk write, for files and processes', () => {
    const readOnly = restricted([{ ...root, access: 'read' }]);
    expect(sandboxRestricts(readOnly)).toBe(true);
    expect(sandboxConfinesProcess(readOnly)).toBe(true);
  });

  it('leaves full-disk write unconfined for files, but still confines a process without network', () => {
    const fullWrite = restricted([{ ...root, access: 'write' }]);
    expect(sandboxRestricts(fullWrite)).toBe(false);
    expect(sandboxConfinesProcess(fullWrite)).toBe(true);
    expect(sandboxConfinesProcess(restricted([{ ...root, access: 'write' }], 'enabled'))).toBe(false);
  });

  it('confines full-disk write that carves out a denied path', () => {
    expect(sandboxRestricts(restricted([{ ...root, access: 'write' }, { path: { type: 'path', path: 'file:///secret' }, access: 'none' }]))).toBe(true);
  });

  it('never confines disabled or external profiles, or no context at all', () => {
    for (const permissions of [{ type: 'disabled' }, { type: 'external', network: 'restricted' }]) {
      expect(sandboxRestricts(context(permissions))).toBe(false);
      expect(sandboxConfinesProcess(context(permissions))).toBe(false);
    }
    expect(sandboxRestricts(undefined)).toBe(false);
    expect(sandboxConfinesProcess(null)).toBe(false);
  });

  it('confines processes of an unrestricted filesystem when the network is restricted', () => {
    const unrestricted = context({ type: 'managed', network: 'restricted', file_system: { type: 'unrestricted' } });
    expect(sandboxRestricts(unrestricted)).toBe(false);
    expect(sandboxConfinesProcess(unrestricted)).toBe(true);
  });
});
