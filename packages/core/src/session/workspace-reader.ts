// The reads a session needs from the machine its thread runs on (AGENTS.md, local images). Injected,
// so a thread on a remote executor reads there, and tests read a temporary folder.
import { readFile } from 'node:fs/promises';

/** Reads files by absolute path. */
export interface WorkspaceReader {
  /** The file as UTF-8 text, or undefined when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /** The file's bytes; throws when it cannot be read. */
  readBytes(path: string): Promise<Uint8Array>;
}

/** A reader over this machine's filesystem. */
export const localWorkspaceReader: WorkspaceReader = {
  async readText(path) {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
      throw error;
    }
  },
  readBytes: (path) => readFile(path),
};
