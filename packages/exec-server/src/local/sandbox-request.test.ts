import { describe, expect, it } from 'vitest';
import { FileSystemSandboxContext } from '../sandbox-context.js';
import { toSandboxRequest } from './sandbox-request.js';

const inputs = { fallbackCwd: '/srv', env: { TMPDIR: '/tmp' } };
const context = (permissions: unknown, cwd?: string) =>
  FileSystemSandboxContext.parse({ permissions, ...(cwd === undefined ? {} : { cwd }), windowsSandboxLevel: 'disabled' });

describe('toSandboxRequest', () => {
  it('turns a restricted profile into a split policy with native paths, the network riding on the legacy policy', () => {
    const request = toSandboxRequest(
      context(
        {
          type: 'managed',
          network: 'enabled',
          file_system: {
            type: 'restricted',
            glob_scan_max_depth: 3,
            entries: [
              { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
              { path: { type: 'path', path: 'file:///repo%20dir' }, access: 'write' },
              { path: { type: 'path', path: 'file:///repo%20dir/secret' }, access: 'none', missing_path_behavior: 'skip' },
              { path: { type: 'special', value: { kind: 'current_working_directory' } }, access: 'write' },
            ],
          },
        },
        'file:///repo%20dir',
      ),
      { ...inputs, extraReadable: ['/usr/bin/node'] },
    );
    expect(request).toEqual({
      policy: { type: 'read-only', network_access: true },
      fileSystemPolicy: {
        kind: 'restricted',
        glob_scan_max_depth: 3,
        entries: [
          { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
          { path: { type: 'path', path: '/repo dir' }, access: 'write' },
          { path: { type: 'path', path: '/repo dir/secret' }, access: 'deny', missing_path_behavior: 'skip' },
          { path: { type: 'special', value: { kind: 'project_roots' } }, access: 'write' },
          { path: { type: 'path', path: '/usr/bin/node' }, access: 'read' },
        ],
      },
      cwd: '/repo dir',
      env: { TMPDIR: '/tmp' },
    });
  });

  it('maps unrestricted, disabled and external profiles, using the fallback cwd when none is given', () => {
    expect(toSandboxRequest(context({ type: 'managed', network: 'restricted', file_system: { type: 'unrestricted' } }), inputs)).toEqual({
      policy: { type: 'read-only', network_access: false },
      fileSystemPolicy: { kind: 'unrestricted', entries: [] },
      cwd: '/srv',
      env: inputs.env,
    });
    expect(toSandboxRequest(context({ type: 'disabled' }), inputs).policy).toEqual({ type: 'danger-full-access' });
    expect(toSandboxRequest(context({ type: 'external', network: 'enabled' }), inputs).policy).toEqual({ type: 'external-sandbox', network_access: 'enabled' });
  });

  it('refuses a context whose paths belong to another operating system', () => {
    expect(() => toSandboxRequest(context({ type: 'disabled' }, 'file:///c:/repo'), inputs)).toThrow(/not a path on/);
  });
});
