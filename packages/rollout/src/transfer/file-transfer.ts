// Export and import for the file store: a thread's file is already the Codex JSONL rollout, so an
// export reads it line by line, and an import writes a checked rollout as a new thread file (to a
// temporary name first, renamed into place when whole) and indexes it.
import { createReadStream } from 'node:fs';
import { link, mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { RolloutError } from '../rollout-error.js';
import { liveRolloutPath } from '../rollout-path.js';
import type { ImportedRollout } from './imported-rollout.js';

/** Calls `write` with each line of the file at `filePath` (without its newline), in order. */
export async function exportRolloutFile(filePath: string, write: (line: string) => Promise<void> | void): Promise<void> {
  const lines = createInterface({ input: createReadStream(filePath, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) if (line !== '') await write(line);
}

/** Writes `rollout` as a new thread file under `home`; answers its path. Throws `AlreadyExists` when the thread's file is there. */
export async function importRolloutFile(home: string, rollout: ImportedRollout): Promise<string> {
  const createdAt = new Date(rollout.meta.timestamp);
  if (Number.isNaN(createdAt.getTime())) throw new RolloutError('CorruptLine', `the header's timestamp ${rollout.meta.timestamp} is not a time`, undefined, 1);
  const target = liveRolloutPath(home, rollout.meta.id, createdAt);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.importing`;
  const handle = await open(partial, 'wx');
  try {
    await handle.writeFile(`${rollout.texts.join('\n')}\n`, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    // A hard link refuses an existing target, where a rename would replace it.
    await link(partial, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RolloutError('AlreadyExists', `thread ${rollout.meta.id} is already in ${home}`, target, undefined, { cause: error });
    throw error;
  } finally {
    await unlink(partial).catch(() => undefined);
  }
  return target;
}
