// `exec --output-last-message FILE`: the final agent message, written so that a reader never sees a
// half-written file — into a temporary file beside the target, then renamed over it.
import { randomBytes } from 'node:crypto';
import { rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { ExecError } from './exec-error.js';

/** Writes `text` to `file` atomically (same directory, then rename); throws `OutputFileNotWritten`. */
export async function writeLastMessageFile(file: string, text: string): Promise<void> {
  // Same directory as the target, so the rename stays on one file system and is atomic.
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ExecError('OutputFileNotWritten', `could not write the last message to ${file}: ${(error as Error).message}`, { cause: error });
  }
}
