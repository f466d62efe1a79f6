import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemError } from '../file-system-error.js';
import { SYNC_READ_MAX_BYTES, SyncFileCalls } from './sync-file-calls.js';

describe('SyncFileCalls', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sync-file-calls-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a small file whole, and leaves a larger one to the thread pool', async () => {
    const calls = new SyncFileCalls();
    await writeFile(path.join(dir, 'small'), 'hello\n');
    await writeFile(path.join(dir, 'empty'), '');
    await writeFile(path.join(dir, 'large'), Buffer.alloc(SYNC_READ_MAX_BYTES + 1, 1));
    expect(Buffer.from(calls.readSmallFile(path.join(dir, 'small')) ?? []).toString()).toBe('hello\n');
    expect(calls.readSmallFile(path.join(dir, 'empty'))?.byteLength).toBe(0);
    expect(calls.readSmallFile(path.join(dir, 'large'))).toBeUndefined();
    // Each answer is its own copy, not a view of the shared buffer the next read overwrites.
    const first = calls.readSmallFile(path.join(dir, 'small'));
    await writeFile(path.join(dir, 'other'), 'HELLO!');
    calls.readSmallFile(path.join(dir, 'other'));
    expect(Buffer.from(first ?? []).toString()).toBe('hello\n');
  });

  it('refuses a directory and reports OS errors as they are', async () => {
    const calls = new SyncFileCalls();
    await mkdir(path.join(dir, 'sub'));
    expect(() => calls.readSmallFile(path.join(dir, 'sub'))).toThrow(FileSystemError);
    expect(() => calls.readSmallFile(path.join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('reports metadata, following a final symlink and saying it was one', async () => {
    const calls = new SyncFileCalls();
    await writeFile(path.join(dir, 'file'), 'abc');
    await symlink(path.join(dir, 'file'), path.join(dir, 'link'));
    expect(calls.metadata(path.join(dir, 'file'))).toMatchObject({ isFile: true, isDirectory: false, isSymlink: false, size: 3 });
    expect(calls.metadata(path.join(dir, 'link'))).toMatchObject({ isFile: true, isSymlink: true, size: 3 });
    expect(calls.metadata(dir)).toMatchObject({ isDirectory: true, isFile: false });
  });
});
