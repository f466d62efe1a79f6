import { describe, expect, it } from 'vitest';
import { isWritable, sandboxContextFor } from './sandbox-context.js';

const workspaceWrite = { sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { writableRoots: ['D:\\shared'], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false } } as const;
const windows = { cwd: 'C:\\repo', roots: ['C:\\repo'], convention: 'windows', env: {} } as const;

describe('isWritable on a Windows executor', () => {
  it('judges paths by their text: inside a root or a configured writable root, outside the protected directories', () => {
    expect(isWritable(workspaceWrite, 'C:\\repo\\src\\a.ts', windows)).toBe(true);
    // Compared as Windows compares names: case and trailing dots do not matter.
    expect(isWritable(workspaceWrite, 'c:\\REPO\\b.ts', windows)).toBe(true);
    expect(isWritable(workspaceWrite, 'D:\\shared\\x', windows)).toBe(true);
    for (const protectedPath of ['C:\\repo\\.git\\config', 'C:\\repo\\.GIT\\config', 'C:\\repo\\.git.\\config', 'C:\\repo\\.git::$INDEX_ALLOCATION\\x', 'C:\\repo\\GIT~1\\config']) {
      expect(isWritable(workspaceWrite, protectedPath, windows), protectedPath).toBe(false);
    }
    // A root that holds another keeps the inner one's protected directories read-only too.
    expect(isWritable(workspaceWrite, 'C:\\repo\\.git\\x', { ...windows, roots: ['C:\\', 'C:\\repo'] })).toBe(false);
    expect(isWritable(workspaceWrite, 'C:\\other\\x', windows)).toBe(false);
    expect(isWritable(workspaceWrite, 'relative\\x', windows)).toBe(false);
  });

  it('lets nothing be written read-only and everything under danger-full-access', () => {
    expect(isWritable({ ...workspaceWrite, sandboxMode: 'read-only' }, 'C:\\repo\\a', windows)).toBe(false);
    expect(isWritable({ ...workspaceWrite, sandboxMode: 'danger-full-access' }, 'C:\\anywhere', windows)).toBe(true);
  });

  it('names its paths as Windows file URIs in the sandbox context, leaving out this host\'s POSIX writable roots', () => {
    const posixRoots = { ...workspaceWrite, sandboxWorkspaceWrite: { ...workspaceWrite.sandboxWorkspaceWrite, writableRoots: ['/data'] } };
    const entries = sandboxContextFor(posixRoots, 'C:\\repo', ['C:\\repo', '/data'], 'windows')?.permissions;
    expect(JSON.stringify(entries)).not.toContain('data');
    expect(JSON.stringify(entries)).toContain('file:///c:/repo/.git');
    const context = sandboxContextFor(workspaceWrite, 'C:\\repo', ['C:\\repo'], 'windows');
    expect(String(context?.cwd)).toBe('file:///c:/repo');
    expect(context?.workspaceRoots?.map(String)).toEqual(['file:///c:/repo']);
  });
});

describe('sandboxContextFor, memoized (issue #43: built on every turn)', () => {
  const settings = { sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { writableRoots: ['/data'], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false } } as const;

  it('answers the same inputs with one frozen context', () => {
    const context = sandboxContextFor(settings, '/repo', ['/repo']);

    expect(sandboxContextFor({ ...settings, sandboxWorkspaceWrite: { ...settings.sandboxWorkspaceWrite } }, '/repo', ['/repo'])).toBe(context);
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(context?.permissions)).toBe(true);
  });

  it('builds another context when any input differs', () => {
    const context = sandboxContextFor(settings, '/repo', ['/repo']);

    expect(String(sandboxContextFor(settings, '/other', ['/other'])?.cwd)).toBe('file:///other');
    expect(sandboxContextFor(settings, '/repo', ['/repo', '/more'])?.workspaceRoots?.map(String)).toEqual(['file:///repo', 'file:///more']);
    expect(sandboxContextFor({ ...settings, sandboxWorkspaceWrite: { ...settings.sandboxWorkspaceWrite, networkAccess: true } }, '/repo', ['/repo'])?.permissions).toMatchObject({ network: 'enabled' });
    expect(JSON.stringify(sandboxContextFor({ ...settings, sandboxMode: 'read-only' }, '/repo', ['/repo'])?.permissions)).not.toContain('write');
    expect(sandboxContextFor({ ...settings, sandboxMode: 'danger-full-access' }, '/repo', ['/repo'])).toBeNull();
    expect(sandboxContextFor(settings, '/repo', ['/repo'])).toBe(context);
  });
});
