// OpenFile: the one capability through which the readers, the writer and the store open rollout
// files, injected so a test can see (and count) every file a read or a resume touches.
import { open, type FileHandle } from 'node:fs/promises';

/** Opens a file as `node:fs/promises`' `open` does (`flags` as a string like `'r'` or as `O_*` bits). */
export type OpenFile = (filePath: string, flags: string | number) => Promise<FileHandle>;

/** The real filesystem's `open`. */
export const openFile: OpenFile = (filePath, flags) => open(filePath, flags);
