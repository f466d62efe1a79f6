import { describe, expect, it } from 'vitest';
import { userAgent } from './user-agent.js';

describe('userAgent', () => {
  it('has Codex\'s shape: client/version (os release; arch) terminal (client; client version)', () => {
    const host = { osType: 'Linux', osRelease: '6.1.0', arch: 'x64', env: { TERM: 'xterm-256color' } };
    expect(userAgent({ name: 'vscode', version: '1.2.3' }, '0.4.0', host)).toBe('vscode/0.4.0 (Linux 6.1.0; x86_64) xterm-256color (vscode; 1.2.3)');
    expect(userAgent({ name: 'ide', version: '1' }, '0.4.0', { ...host, arch: 'arm64', env: { TERM_PROGRAM: 'iTerm.app', TERM: 'xterm' } })).toBe(
      'ide/0.4.0 (Linux 6.1.0; aarch64) iTerm.app (ide; 1)',
    );
  });
});
