import { PathUri } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { execYieldTime, resolveWorkdir, writeYieldTime } from './unified-exec-sessions.js';

describe('yield times', () => {
  it('defaults exec_command to 10 s and clamps it to [250 ms, 30 s]', () => {
    expect(execYieldTime(undefined)).toBe(10_000);
    expect(execYieldTime(null)).toBe(10_000);
    expect(execYieldTime(10)).toBe(250);
    expect(execYieldTime(120_000)).toBe(30_000);
    expect(execYieldTime(1234.9)).toBe(1234);
  });

  it('defaults write_stdin to 250 ms; a poll waits between 5 s and 300 s', () => {
    expect(writeYieldTime(undefined, false)).toBe(250);
    expect(writeYieldTime(100_000, false)).toBe(30_000);
    expect(writeYieldTime(undefined, true)).toBe(5_000);
    expect(writeYieldTime(10_000, true)).toBe(10_000);
    expect(writeYieldTime(1_000_000, true)).toBe(300_000);
  });
});

describe('resolveWorkdir', () => {
  const cwd = PathUri.fromNativePath('/repo', 'posix');

  it('uses the turn cwd, a path relative to it, or an absolute path', () => {
    expect(resolveWorkdir(cwd, undefined).toString()).toBe('file:///repo');
    expect(resolveWorkdir(cwd, 'src/lib').toString()).toBe('file:///repo/src/lib');
    expect(resolveWorkdir(cwd, '/tmp').toString()).toBe('file:///tmp');
  });

  it('rejects a workdir that climbs above the root', () => {
    expect(() => resolveWorkdir(cwd, '../../..')).toThrow(expect.objectContaining({ code: 'InvalidWorkdir' }));
  });
});
