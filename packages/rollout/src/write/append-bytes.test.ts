import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendBytes, SYNC_APPEND_MAX_BYTES } from './append-bytes.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-append-bytes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('appendBytes', () => {
  it('appends small batches (written at once) and large ones (through the pool) whole and in order', async () => {
    const file = path.join(dir, 'lines.jsonl');
    const handle = await open(file, 'a');
    const small = Buffer.from('{"n":1}\n');
    const large = Buffer.alloc(SYNC_APPEND_MAX_BYTES * 3 + 7, 'x');
    try {
      await appendBytes(handle, small);
      await appendBytes(handle, large);
      await appendBytes(handle, small);
    } finally {
      await handle.close();
    }
    expect(await readFile(file)).toEqual(Buffer.concat([small, large, small]));
  });

  it('fails as a write to a closed file does', async () => {
    const handle = await open(path.join(dir, 'closed.jsonl'), 'a');
    await handle.close();
    await expect(appendBytes(handle, Buffer.from('x\n'))).rejects.toThrow();
  });
});
