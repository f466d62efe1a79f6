import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecError } from './exec-error.js';
import { writeLastMessageFile } from './last-message-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-last-message-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeLastMessageFile', () => {
  it('replaces an existing file and leaves no temporary file behind', async () => {
    const file = path.join(dir, 'last.txt');
    writeFileSync(file, 'old contents that are longer than the new ones');
    await writeLastMessageFile(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['last.txt']);
  });

  it('answers OutputFileNotWritten and leaves nothing when the directory is missing or the target is a directory', async () => {
    await expect(writeLastMessageFile(path.join(dir, 'missing', 'last.txt'), 'x')).rejects.toMatchObject({ code: 'OutputFileNotWritten' });
    mkdirSync(path.join(dir, 'taken'));
    const error: unknown = await writeLastMessageFile(path.join(dir, 'taken'), 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExecError);
    expect((error as ExecError).message).toContain(path.join(dir, 'taken'));
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
