import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { EnvironmentInfo } from '../protocol/messages.js';
import { EXEC_SERVER_PROTOCOL_VERSION, describeEnvironment } from './environment-info.js';

// The capability keys Codex 0.171.0's exec-server reports (observed with `codex exec-server`).
const CODEX_CAPABILITY_KEYS = [
  'networkProxyLaunch',
  'networkProxyReviewDomains',
  'networkProxyTransparentTcp',
  'credentialMasking',
  'credentialMaskingCustomProviders',
  'capabilityDiscoverySandbox',
  'fsWatchMissing',
  'capabilityDiscoveryV2',
  'environmentConfigRead',
  'httpHeaderEnvVars',
  'sandboxedFileStreaming',
  'fileWriteStreaming',
  'shellSnapshotV2',
  'windowsMxc',
  'linuxRootWritePreservesDevices',
  'linuxApprovedRootWritePreservesRestrictions',
];

describe('describeEnvironment', () => {
  it('reports this machine in Codex’s shape, with file: URIs and only the capabilities implemented', () => {
    const info = EnvironmentInfo.parse(describeEnvironment({ cwd: '/srv/work dir', sandboxAvailable: true }));
    expect(info.cwd).toBe('file:///srv/work%20dir');
    expect(info.executorVersion).toBe(EXEC_SERVER_PROTOCOL_VERSION);
    expect(info.platformOs).toBe('linux');
    expect(info.providerId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(info.userHomeDir).toBe(`file://${userInfo().homedir}`);
    expect(info.shell.path.startsWith('/')).toBe(true);
    expect(Object.keys(info.capabilities)).toEqual(CODEX_CAPABILITY_KEYS);
    expect(info.capabilities).toMatchObject({ sandboxedFileStreaming: true, capabilityDiscoverySandbox: true, fileWriteStreaming: false });
    expect(describeEnvironment({ cwd: '/', sandboxAvailable: false }).capabilities.sandboxedFileStreaming).toBe(false);
  });
});
