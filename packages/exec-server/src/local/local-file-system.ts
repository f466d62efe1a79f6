// LocalFileSystem: ExecutorFileSystem on this machine. A call whose sandbox context restricts access is
// handed to the sandboxed runner (a helper process under the same policy as commands); the rest run directly.
import type { PathUri } from '@skein/protocol/executor';
import type { BlockReader, BlockReaderSource } from '../block-reader.js';
import { FileSystemError } from '../file-system-error.js';
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
import { sandboxRestricts } from '../sandbox-context.js';
import { DirectFileSystem } from './direct-file-system.js';
import { decodeUtf8 } from './utf8.js';

/** Options of {@link LocalFileSystem}. */
export interface LocalFileSystemOptions {
  /**
   * Runs the calls whose sandbox context restricts access. Without one such calls fail with
   * 'SandboxUnavailable' — never silently unconfined.
   */
  readonly sandboxed?: (ExecutorFileSystem & BlockReaderSource) | undefined;
}

/** The local filesystem, with sandboxed calls routed through the sandboxed runner. */
export class LocalFileSystem implements ExecutorFileSystem, BlockReaderSource {
  private readonly direct = new DirectFileSystem();

  constructor(private readonly options: LocalFileSystemOptions = {}) {}

  private route(options: FileSystemCallOptions | undefined): ExecutorFileSystem & BlockReaderSource {
    if (!sandboxRestricts(options?.sandbox)) return this.direct;
    if (this.options.sandboxed === undefined) {
      throw new FileSystemError('SandboxUnavailable', 'this executor has no sandbox, so it refuses to run a confined call unconfined');
    }
    return this.options.sandboxed;
  }

  /** Opens a file for reads at offsets (what `fs/open` serves). */
  async openBlockReader(path: PathUri, options?: FileSystemCallOptions): Promise<BlockReader> {
    return this.route(options).openBlockReader(path, options);
  }

  async canonicalize(path: PathUri, options?: FileSystemCallOptions): Promise<PathUri> {
    return this.route(options).canonicalize(path, options);
  }

  async readFile(path: PathUri, options?: FileSystemCallOptions): Promise<Uint8Array> {
    return this.route(options).readFile(path, options);
  }

  async readFileText(path: PathUri, options?: FileSystemCallOptions): Promise<string> {
    return decodeUtf8(await this.readFile(path, options), path);
  }

  async *readFileStream(path: PathUri, options?: FileSystemCallOptions): AsyncGenerator<Uint8Array> {
    yield* this.route(options).readFileStream(path, options);
  }

  async writeFile(path: PathUri, data: Uint8Array, options?: FileSystemCallOptions): Promise<void> {
    return this.route(options).writeFile(path, data, options);
  }

  async createDirectory(path: PathUri, options?: CreateDirectoryOptions): Promise<void> {
    return this.route(options).createDirectory(path, options);
  }

  async getMetadata(path: PathUri, options?: GetMetadataOptions): Promise<FileMetadata> {
    return this.route(options).getMetadata(path, options);
  }

  async readDirectory(path: PathUri, options?: FileSystemCallOptions): Promise<ReadDirectoryEntry[]> {
    return this.route(options).readDirectory(path, options);
  }

  async walk(path: PathUri, options: WalkOptions, callOptions?: FileSystemCallOptions): Promise<WalkOutcome> {
    return this.route(callOptions).walk(path, options, callOptions);
  }

  async remove(path: PathUri, options?: RemoveOptions): Promise<void> {
    return this.route(options).remove(path, options);
  }

  async copy(source: PathUri, destination: PathUri, options?: CopyOptions): Promise<void> {
    return this.route(options).copy(source, destination, options);
  }
}
