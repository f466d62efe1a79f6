// SandboxedFileSystem: runs each filesystem call in a fs helper confined by the call's own sandbox
// context, so reads and writes obey exactly the policy commands get. Open files keep their helper.
import { fileURLToPath } from 'node:url';
import { lazySchema, type PathUri } from '@skein/protocol/executor';
import * as z from 'zod';
import type { BlockReader, BlockReaderSource } from '../block-reader.js';
import { FileSystemError } from '../file-system-error.js';
import {
  FileMetadata,
  ReadDirectoryEntry,
  WalkOutcome,
  type CopyOptions,
  type CreateDirectoryOptions,
  type ExecutorFileSystem,
  type FileSystemCallOptions,
  type GetMetadataOptions,
  type RemoveOptions,
  type WalkOptions,
} from '../file-system.js';
import type { HelperOperation } from '../internal/helper-protocol.js';
import { FILE_READ_CHUNK_BYTES } from '../limits.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import { FsCanonicalizeResponse, FsReadBlockResponse, FsReadFileResponse } from '../protocol/messages.js';
import type { FileSystemSandboxContext } from '../sandbox-context.js';
import { FsHelperSession, type FsHelperSettings } from './fs-helper-session.js';
import { decodeUtf8 } from './utf8.js';

/** Options of {@link SandboxedFileSystem}; each has a default for the built package. */
export interface SandboxedFileSystemOptions {
  /** The built helper (default: `fs-helper.js` beside this module in `dist/`). */
  readonly helperPath?: string | undefined;
  /** The Node.js binary (default `process.execPath`). */
  readonly nodePath?: string | undefined;
  /** Used when a context names no cwd (default `process.cwd()`). */
  readonly fallbackCwd?: string | undefined;
  /** The executor's environment (default `process.env`). */
  readonly hostEnv?: Readonly<Record<string, string | undefined>> | undefined;
}

const Entries = lazySchema(() => z.object({ entries: z.array(ReadDirectoryEntry) }));

function contextOf(options: FileSystemCallOptions | undefined): FileSystemSandboxContext {
  if (options?.sandbox == null) throw new FileSystemError('InvalidArgument', 'a sandboxed call needs a sandbox context');
  return options.sandbox;
}

/** An ExecutorFileSystem whose every call runs confined by its sandbox context. */
export class SandboxedFileSystem implements ExecutorFileSystem, BlockReaderSource {
  private readonly settings: FsHelperSettings;

  constructor(options: SandboxedFileSystemOptions = {}) {
    this.settings = {
      helperPath: options.helperPath ?? fileURLToPath(new URL('./fs-helper.js', import.meta.url)),
      nodePath: options.nodePath ?? process.execPath,
      fallbackCwd: options.fallbackCwd ?? process.cwd(),
      hostEnv: options.hostEnv ?? process.env,
    };
  }

  private async once(options: FileSystemCallOptions | undefined, op: HelperOperation, params: unknown): Promise<unknown> {
    const session = await FsHelperSession.start(contextOf(options), this.settings);
    try {
      return await session.request(op, params);
    } finally {
      await session.close();
    }
  }

  async openBlockReader(path: PathUri, options?: FileSystemCallOptions): Promise<BlockReader> {
    const session = await FsHelperSession.start(contextOf(options), this.settings);
    try {
      await session.request('open', { path });
    } catch (error) {
      await session.close();
      throw error;
    }
    return {
      readBlock: async (offset, length) => FsReadBlockResponse.parse(await session.request('readBlock', { offset, len: length })),
      close: async () => {
        await session.request('close', {}).catch(() => undefined);
        await session.close();
      },
    };
  }

  async canonicalize(path: PathUri, options?: FileSystemCallOptions): Promise<PathUri> {
    return FsCanonicalizeResponse.parse(await this.once(options, 'canonicalize', { path })).path;
  }

  async readFile(path: PathUri, options?: FileSystemCallOptions): Promise<Uint8Array> {
    return FsReadFileResponse.parse(await this.once(options, 'readFile', { path })).dataBase64;
  }

  async readFileText(path: PathUri, options?: FileSystemCallOptions): Promise<string> {
    return decodeUtf8(await this.readFile(path, options), path);
  }

  async *readFileStream(path: PathUri, options?: FileSystemCallOptions): AsyncGenerator<Uint8Array> {
    const reader = await this.openBlockReader(path, options);
    try {
      for (let offset = 0; ; ) {
        const block = await reader.readBlock(offset, FILE_READ_CHUNK_BYTES);
        if (block.chunk.byteLength > 0) yield block.chunk;
        offset += block.chunk.byteLength;
        if (block.eof) return;
      }
    } finally {
      await reader.close();
    }
  }

  async writeFile(path: PathUri, data: Uint8Array, options?: FileSystemCallOptions): Promise<void> {
    await this.once(options, 'writeFile', { path, dataBase64: toBase64(data) });
  }

  async createDirectory(path: PathUri, options?: CreateDirectoryOptions): Promise<void> {
    await this.once(options, 'createDirectory', { path, recursive: options?.recursive ?? false });
  }

  async getMetadata(path: PathUri, options?: GetMetadataOptions): Promise<FileMetadata> {
    return FileMetadata.parse(await this.once(options, 'getMetadata', { path, followSymlinks: options?.followSymlinks ?? true }));
  }

  async readDirectory(path: PathUri, options?: FileSystemCallOptions): Promise<ReadDirectoryEntry[]> {
    return Entries.parse(await this.once(options, 'readDirectory', { path })).entries;
  }

  async walk(path: PathUri, options: WalkOptions, callOptions?: FileSystemCallOptions): Promise<WalkOutcome> {
    return WalkOutcome.parse(await this.once(callOptions, 'walk', { path, options }));
  }

  async remove(path: PathUri, options?: RemoveOptions): Promise<void> {
    await this.once(options, 'remove', { path, recursive: options?.recursive ?? false, force: options?.force ?? false });
  }

  async copy(source: PathUri, destination: PathUri, options?: CopyOptions): Promise<void> {
    await this.once(options, 'copy', { sourcePath: source, destinationPath: destination, recursive: options?.recursive ?? false });
  }
}
