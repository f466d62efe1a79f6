// The Windows restricted-token request and direct-spawn transform as golden data.
import { describe, expect, it } from 'vitest';
import type { PathRule, ResolvedPolicy } from './resolve-policy.js';
import { WINDOWS_SANDBOX_ARG1, windowsDirectSpawnTransform, windowsSandboxRequest } from './windows-sandbox.js';

const rule = (path: string, access: PathRule['access'], extra: Partial<PathRule> = {}): PathRule => ({ path, access, protected: false, state: 'directory', ...extra });

const policy: ResolvedPolicy = {
  external: false,
  network: 'restricted',
  fileSystem: {
    kind: 'restricted',
    rootAccess: 'read',
    rules: [
      rule('C:\\Users\\ada\\AppData\\Local\\Temp', 'write'),
      rule('C:\\repo', 'write'),
      rule('C:\\repo\\.agents', 'read', { protected: true, state: 'missing', firstMissing: 'C:\\repo\\.agents' }),
      rule('C:\\repo\\.git', 'read', { protected: true }),
      rule('C:\\repo\\secrets', 'deny'),
    ],
  },
};
const env = { PATH: 'C:\\Windows\\System32', TEMP: 'C:\\Users\\ada\\AppData\\Local\\Temp' };

describe('windowsSandboxRequest', () => {
  it('describes the restricted token, the ACL changes and the network rule', async () => {
    const request = windowsSandboxRequest(policy, 'C:\\repo', env);
    await expect(`${JSON.stringify(request, null, 2)}\n`).toMatchFileSnapshot('../test/golden/windows-request-workspace.json');
  });

  it('allows outbound network when the policy does', () => {
    expect(windowsSandboxRequest({ ...policy, network: 'enabled' }, 'C:\\repo', env).network).toEqual({ outbound: 'allowed' });
  });
});

describe('windowsDirectSpawnTransform', () => {
  it('wraps the command as a self-contained skein argv and marks the outer spawn unsandboxed', async () => {
    const request = windowsSandboxRequest(policy, 'C:\\repo', env);
    const transformed = windowsDirectSpawnTransform(request, ['cmd.exe', '/c', 'dir'], 'C:\\Program Files\\skein\\skein.exe');
    expect(transformed.argv.slice(0, 3)).toEqual(['C:\\Program Files\\skein\\skein.exe', WINDOWS_SANDBOX_ARG1, '--request-json']);
    expect(JSON.parse(transformed.argv[3]!)).toEqual(request);
    expect(transformed.argv.slice(4)).toEqual(['--', 'cmd.exe', '/c', 'dir']);
    expect(transformed.outer).toEqual({ policy: { type: 'external-sandbox', network_access: 'restricted' }, cwd: 'C:\\repo', sandboxed: false });
    await expect(`${JSON.stringify(transformed, null, 2)}\n`).toMatchFileSnapshot('../test/golden/windows-direct-spawn.json');
  });
});
