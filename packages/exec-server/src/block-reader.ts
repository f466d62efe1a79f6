// BlockReader: an open file read at offsets — what `fs/open` / `fs/readBlock` / `fs/close` hand out.
import type { PathUri } from '@skein/protocol/executor';
import type { FileSystemCallOptions } from './file-system.js';

/** One block: up to the requested length; `eof` when fewer bytes than asked for were left. */
export interface FileBlock {
  readonly chunk: Uint8Array;
  readonly eof: boolean;
}

/** An open regular file. */
export interface BlockReader {
  readBlock(offset: number, length: number): Promise<FileBlock>;
  close(): Promise<void>;
}

/** Something that opens files for block reads (sandboxed when the call's context restricts). */
export interface BlockReaderSource {
  openBlockReader(path: PathUri, options?: FileSystemCallOptions): Promise<BlockReader>;
}
