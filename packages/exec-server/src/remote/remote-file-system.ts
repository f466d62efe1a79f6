// RemoteFileSystem: ExecutorFileSystem over an exec-server connection. Every method is one request
// (streams use fs/open + fs/readBlock + fs/close), and error answers become the same FileSystemErrors
// the local implementation throws.
import { randomBytes } from 'node:crypto';
import type { PathUri } from '@skein/protocol/executor';
import type { z } from 'zod';
import type { BlockReader, BlockReaderSource } from '../block-reader.js';
import type {
  CopyOptions,
  CreateDirectoryOptions,
  ExecutorFileSystem,
  FileMetadata,
  FileSystemCallOptions,
  GetMetadataOptions,
  ReadDirectoryEntry,
  RemoveOptions,
  WalkOptions,
  WalkOutcome,
} from '../file-system.js';
import { FILE_READ_CHUNK_BYTES } from '../limits.js';
import { decodeUtf8 } from '../local/utf8.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import {
  EmptyResponse,
  ExecServerMethod,
  FsCanonicalizeResponse,
  FsGetMetadataResponse,
  FsOpenResponse,
  FsReadBlockResponse,
  FsReadDirectoryResponse,
  FsReadFileResponse,
  FsWalkResponse,
} from '../protocol/messages.js';
import { fileSystemErrorFrom } from './error-from-answer.js';
import type { ExecServerClient } from './exec-server-client.js';

/** The filesystem of the machine an exec-server runs on. */
export class RemoteFileSystem implements ExecutorFileSystem, BlockReaderSource {
  constructor(private readonly client: ExecServerClient) {}

  private call<S extends z.ZodType>(method: string, params: Record<string, unknown>, schema: S, options?: FileSystemCallOptions): Promise<z.output<S>> {
    const withSandbox = options?.sandbox == null ? params : { ...params, sandbox: options.sandbox };
    return this.client.request(method, withSandbox, schema, fileSystemErrorFrom);
  }

  async canonicalize(path: PathUri, options?: FileSystemCallOptions): Promise<PathUri> {
    return (await this.call(ExecServerMethod.FsCanonicalize, { path }, FsCanonicalizeResponse, options)).path;
  }

  async readFile(path: PathUri, options?: FileSystemCallOptions): Promise<Uint8Array> {
    return (await this.call(ExecServerMethod.FsReadFile, { path }, FsReadFileResponse, options)).dataBase64;
  }

  async readFileText(path: PathUri, options?: FileSystemCallOptions): Promise<string> {
    return decodeUtf8(await this.readFile(path, options), path);
  }

  async openBlockReader(path: PathUri, options?: FileSystemCallOptions): Promise<BlockReader> {
    // 32 hex characters: Codex's server refuses handle ids over 32 bytes.
    const { handleId } = await this.call(ExecServerMethod.FsOpen, { handleId: randomBytes(16).toString('hex'), path }, FsOpenResponse, options);
    return {
      readBlock: (offset, length) => this.call(ExecServerMethod.FsReadBlock, { handleId, offset, len: length }, FsReadBlockResponse),
      close: async () => {
        await this.call(ExecServerMethod.FsClose, { handleId }, EmptyResponse);
      },
    };
  }

  async *readFileStream(path: PathUri, options?: FileSystemCallOptions): AsyncGenerator<Uint8Array> {
    const reader = await this.openBlockReader(path, options);
    // One block is requested ahead, so the server reads the next while this side decodes the last.
    const request = (offset: number) => reader.readBlock(offset, FILE_READ_CHUNK_BYTES);
    let offset = 0;
    let next = request(offset);
    try {
      for (;;) {
        const { chunk, eof } = await next;
        offset += chunk.byteLength;
        const done = eof || chunk.byteLength === 0;
        if (!done) next = request(offset);
        if (chunk.byteLength > 0) yield chunk;
        if (done) return;
      }
    } finally {
      // Settle the read-ahead before closing; a closed connection has released the handle already.
      await next.catch(() => undefined);
      if (!this.client.closed) await reader.close();
    }
  }

  async writeFile(path: PathUri, data: Uint8Array, options?: FileSystemCallOptions): Promise<void> {
    await this.call(ExecServerMethod.FsWriteFile, { path, dataBase64: toBase64(data) }, EmptyResponse, options);
  }

  async createDirectory(path: PathUri, options?: CreateDirectoryOptions): Promise<void> {
    await this.call(ExecServerMethod.FsCreateDirectory, { path, recursive: options?.recursive ?? false }, EmptyResponse, options);
  }

  getMetadata(path: PathUri, options?: GetMetadataOptions): Promise<FileMetadata> {
    // Sent only when false: Codex's own server ignores an absent flag and follows symlinks.
    const params = options?.followSymlinks === false ? { path, followSymlinks: false } : { path };
    return this.call(ExecServerMethod.FsGetMetadata, params, FsGetMetadataResponse, options);
  }

  async readDirectory(path: PathUri, options?: FileSystemCallOptions): Promise<ReadDirectoryEntry[]> {
    return (await this.call(ExecServerMethod.FsReadDirectory, { path }, FsReadDirectoryResponse, options)).entries;
  }

  walk(path: PathUri, options: WalkOptions, callOptions?: FileSystemCallOptions): Promise<WalkOutcome> {
    return this.call(ExecServerMethod.FsWalk, { path, options }, FsWalkResponse, callOptions);
  }

  async remove(path: PathUri, options?: RemoveOptions): Promise<void> {
    const params = { path, recursive: options?.recursive ?? false, force: options?.force ?? false };
    await this.call(ExecServerMethod.FsRemove, params, EmptyResponse, options);
  }

  async copy(source: PathUri, destination: PathUri, options?: CopyOptions): Promise<void> {
    const params = { sourcePath: source, destinationPath: destination, recursive: options?.recursive ?? false };
    await this.call(ExecServerMethod.FsCopy, params, EmptyResponse, options);
  }
}
