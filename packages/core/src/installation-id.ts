// The installation id Codex keeps in `<home>/installation_id` (a UUID, shared with a Codex install
// using the same home): created on first use, as Codex does, and sent with every model request.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the installation id, writing a new one when the file is missing or holds no UUID. */
export async function readInstallationId(homeDir: string): Promise<string> {
  const file = path.join(homeDir, 'installation_id');
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (UUID.test(text)) return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = randomUUID();
  await mkdir(homeDir, { recursive: true });
  // Written aside and renamed, so a crash never leaves a half-written id for the next start to replace.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, id);
  await rename(partial, file);
  return id;
}
