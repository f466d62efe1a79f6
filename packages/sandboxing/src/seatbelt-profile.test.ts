// Seatbelt profiles as golden text (macOS is not available here, so the text is what is reviewed).
import { describe, expect, it } from 'vitest';
import type { PathRule, ResolvedPolicy } from './resolve-policy.js';
import { SANDBOX_EXEC_PATH, seatbeltArgv, seatbeltProfile } from './seatbelt-profile.js';

const rule = (path: string, access: PathRule['access'], extra: Partial<PathRule> = {}): PathRule => ({ path, access, protected: false, state: 'directory', ...extra });
const guard = (path: string): PathRule => rule(path, 'read', { protected: true, state: 'missing', firstMissing: path });

const workspace: ResolvedPolicy = {
  external: false,
  network: 'restricted',
  fileSystem: {
    kind: 'restricted',
    rootAccess: 'read',
    rules: [
      rule('/private/tmp', 'write'),
      rule('/Users/ada/project', 'write'),
      guard('/private/tmp/.git'),
      guard('/Users/ada/project/.agents'),
      guard('/Users/ada/project/.aws'),
      rule('/Users/ada/project/.codex', 'read', { protected: true, state: 'symlink', writableSymlink: '/Users/ada/project/.codex' }),
      rule('/Users/ada/project/.git', 'read', { protected: true }),
    ],
  },
};

describe('seatbeltProfile', () => {
  it('renders workspace-write without network', async () => {
    const { profile, parameters } = seatbeltProfile(workspace);
    await expect(profile).toMatchFileSnapshot('../test/golden/seatbelt-workspace-write.sb');
    expect(parameters).toEqual([
      ['WRITABLE_ROOT_0', '/private/tmp'],
      ['READ_ONLY_0', '/private/tmp/.git'],
      ['WRITABLE_ROOT_1', '/Users/ada/project'],
      ['READ_ONLY_1', '/Users/ada/project/.agents'],
      ['READ_ONLY_2', '/Users/ada/project/.aws'],
      ['READ_ONLY_3', '/Users/ada/project/.codex'],
      ['READ_ONLY_4', '/Users/ada/project/.git'],
    ]);
  });

  it('renders read-only with network', async () => {
    const policy: ResolvedPolicy = { external: false, network: 'enabled', fileSystem: { kind: 'restricted', rootAccess: 'read', rules: [] } };
    await expect(seatbeltProfile(policy).profile).toMatchFileSnapshot('../test/golden/seatbelt-read-only-network.sb');
  });

  it('renders a split policy with an unreadable root, hidden paths and a reopened subpath', async () => {
    const policy: ResolvedPolicy = {
      external: false,
      network: 'restricted',
      fileSystem: {
        kind: 'restricted',
        rootAccess: 'deny',
        rules: [rule('/usr', 'read'), rule('/repo', 'write'), rule('/repo/a', 'deny'), rule('/repo/a/b', 'write')],
      },
    };
    await expect(seatbeltProfile(policy).profile).toMatchFileSnapshot('../test/golden/seatbelt-split-policy.sb');
  });

  it('wraps the command in sandbox-exec with the parameters as -D definitions', () => {
    const argv = seatbeltArgv({ profile: '(version 1)', parameters: [['WRITABLE_ROOT_0', '/w']] }, ['ls', '-la']);
    expect(argv).toEqual([SANDBOX_EXEC_PATH, '-p', '(version 1)', '-DWRITABLE_ROOT_0=/w', '--', 'ls', '-la']);
  });
});
