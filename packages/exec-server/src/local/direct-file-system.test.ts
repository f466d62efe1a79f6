// DirectFileSystem.readFile reads what stat promised in one read, and keeps reading a file that
// turns out longer than stat said: Linux's /proc files report size 0 and hold kilobytes.
import { existsSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol/executor';
import { describe, expect, it } from 'vitest';
import { DirectFileSystem } from './direct-file-system.js';

const fileSystem = new DirectFileSystem();
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const NO_PROC = existsSync('/proc/self/smaps') ? '' : ' (skipped: no /proc/self/smaps on this machine)';

describe('DirectFileSystem.readFile', () => {
  it('reads a file whole, an empty one too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-read-'));
    try {
      writeFileSync(path.join(dir, 'small.txt'), 'x'.repeat(143) + '\n');
      writeFileSync(path.join(dir, 'empty.txt'), '');
      expect(text(await fileSystem.readFile(PathUri.fromNativePath(path.join(dir, 'small.txt'), 'posix')))).toBe('x'.repeat(143) + '\n');
      expect(await fileSystem.readFile(PathUri.fromNativePath(path.join(dir, 'empty.txt'), 'posix'))).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(NO_PROC !== '')(`keeps reading past the size stat reported${NO_PROC}`, async () => {
    expect(statSync('/proc/self/smaps').size).toBe(0);
    // Well over the 8 KiB read past the stated size: only the loop that follows reads it all.
    const smaps = text(await fileSystem.readFile(PathUri.fromNativePath('/proc/self/smaps', 'posix')));
    expect(smaps.length).toBeGreaterThan(16 * 1024);
    expect(smaps.trimEnd().split('\n').at(-1)).toMatch(/^VmFlags:/);
  });
});
