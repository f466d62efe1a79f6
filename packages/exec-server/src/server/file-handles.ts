// The `fs/open` handles of one connection: a bounded table of open files, all closed with the connection.
import type { BlockReader, FileBlock } from '../block-reader.js';
import { FILE_READ_CHUNK_BYTES, MAX_FILE_HANDLE_ID_BYTES, MAX_OPEN_FILE_HANDLES } from '../limits.js';
import { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';
import { RequestError } from './request-error.js';

/** Open file handles keyed by the client's handle id. */
export class FileHandles {
  private readonly handles = new Map<string, BlockReader>();

  /** Registers a handle, opening the file only once the id is known to be free. */
  async open(handleId: string, opener: () => Promise<BlockReader>): Promise<void> {
    if (Buffer.byteLength(handleId) > MAX_FILE_HANDLE_ID_BYTES) {
      throw new RequestError(ExecServerErrorCode.InvalidRequest, `file handle ID must not exceed ${MAX_FILE_HANDLE_ID_BYTES} bytes`);
    }
    if (this.handles.has(handleId)) {
      throw new RequestError(ExecServerErrorCode.InvalidRequest, `file handle \`${handleId}\` already exists`);
    }
    if (this.handles.size >= MAX_OPEN_FILE_HANDLES) {
      throw new RequestError(
        ExecServerErrorCode.InvalidRequest,
        `at most ${MAX_OPEN_FILE_HANDLES} files may be open per connection; close one with fs/close`,
      );
    }
    const reader = await opener();
    if (this.handles.has(handleId)) {
      // Another request took the id while the file was opening.
      await reader.close();
      throw new RequestError(ExecServerErrorCode.InvalidRequest, `file handle \`${handleId}\` already exists`);
    }
    this.handles.set(handleId, reader);
  }

  readBlock(handleId: string, offset: number, length: number): Promise<FileBlock> {
    if (length < 1 || length > FILE_READ_CHUNK_BYTES) {
      throw new RequestError(
        ExecServerErrorCode.InvalidRequest,
        `file read block length must be between 1 and ${FILE_READ_CHUNK_BYTES}`,
      );
    }
    const reader = this.handles.get(handleId);
    if (reader === undefined) throw new RequestError(ExecServerErrorCode.NotFound, `unknown file handle \`${handleId}\``);
    return reader.readBlock(offset, length);
  }

  /** Closes a handle; an unknown id is not an error (closing twice is harmless, as in Codex). */
  async close(handleId: string): Promise<void> {
    const reader = this.handles.get(handleId);
    this.handles.delete(handleId);
    await reader?.close();
  }

  async closeAll(): Promise<void> {
    const readers = [...this.handles.values()];
    this.handles.clear();
    await Promise.allSettled(readers.map((reader) => reader.close()));
  }
}
