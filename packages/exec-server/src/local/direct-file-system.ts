// The filesystem calls themselves, straight against node:fs with no sandbox in between. LocalFileSystem
// routes unconfined calls here; the sandboxed fs helper runs the same code inside the sandbox.
import { constants, type Dirent } from 'node:fs';
import { lstat, mkdir, open, opendir, realpath, rm, rmdir, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { PathUri } from '@skein/protocol/executor';
import type { BlockReader, BlockReaderSource } from '../block-reader.js';
import { FileSystemError, toFileSystemError } from '../file-system-error.js';
import type {
  CopyOptions,
  CreateDirectoryOptions,
  ExecutorFileSystem,
  FileMetadata,
  GetMetadataOptions,
  ReadDirectoryEntry,
  RemoveOptions,
  WalkOptions,
  WalkOutcome,
} from '../file-system.js';
import { FILE_READ_CHUNK_BYTES, MAX_READ_DIRECTORY_ENTRIES, MAX_READ_FILE_BYTES } from '../limits.js';
import { copyPath } from './copy-path.js';
import { fromNativePath, toNativePath } from './native-path.js';
import { SyncFileCalls, metadataOf } from './sync-file-calls.js';
import { decodeUtf8 } from './utf8.js';
import { walkDirectory } from './walk-directory.js';

// How much is read past the size stat reported, to notice a file that grew while being read.
const GROWTH_PROBE_BYTES = 8 * 1024;
// O_NONBLOCK keeps an open of a FIFO from hanging the server; it changes nothing for regular files.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Runs `operation`, turning OS errors into FileSystemErrors. */
async function fsCall<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toFileSystemError(error);
  }
}

function tooLarge(): FileSystemError {
  return new FileSystemError('TooLarge', `file is larger than ${MAX_READ_FILE_BYTES} bytes; read it in chunks with readFileStream`);
}

/** Opens `native` for reading and checks it is a regular file; the caller closes the handle. */
export async function openRegularFile(native: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(native, READ_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FileSystemError('NotAFile', `path \`${native}\` is not a file`);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** One read of up to `length` bytes from the start of a file (fewer: its end, or a short read). */
async function readOnce(handle: FileHandle, length: number): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, 0);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
}

/** Reads up to `length` bytes at `position`; fewer means the end of the file was reached. */
export async function readBlock(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
}

/**
 * `mkdir -p`. Node's own recursive mkdir reports a read-only filesystem as ENOENT, which hides a
 * sandbox denial; creating one level at a time keeps the real errno.
 */
async function makeDirectoryTree(native: string): Promise<void> {
  const missing: string[] = [];
  for (let current = native; ; current = path.dirname(current)) {
    try {
      await mkdir(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (!(await stat(current)).isDirectory()) throw error;
      } else if (code === 'ENOENT' && path.dirname(current) !== current) {
        missing.push(current);
        continue;
      } else {
        throw error;
      }
    }
    break;
  }
  for (const directory of missing.reverse()) {
    try {
      await mkdir(directory);
    } catch (error) {
      // Another writer may have created it in the meantime.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(directory)).isDirectory()) throw error;
    }
  }
}

/** Throws 'SymlinkNotAllowed' when any component of `native` is a symlink. */
async function refuseSymlinks(native: string): Promise<void> {
  const parts = native.split(path.sep).filter((part) => part !== '');
  let current = path.parse(native).root;
  for (const part of parts) {
    current = path.join(current, part);
    if ((await lstat(current)).isSymbolicLink()) {
      throw new FileSystemError('SymlinkNotAllowed', 'path contains a symbolic link');
    }
  }
}

/** An ExecutorFileSystem that performs every call directly and ignores sandbox contexts. */
export class DirectFileSystem implements ExecutorFileSystem, BlockReaderSource {
  private readonly sync = new SyncFileCalls();

  openBlockReader(target: PathUri): Promise<BlockReader> {
    return fsCall(async () => {
      const { handle } = await openRegularFile(toNativePath(target));
      return {
        readBlock: (offset, length) =>
          fsCall(async () => {
            const chunk = await readBlock(handle, offset, length);
            return { chunk, eof: chunk.byteLength < length };
          }),
        close: () => handle.close(),
      };
    });
  }

  canonicalize(target: PathUri): Promise<PathUri> {
    return fsCall(async () => fromNativePath(await realpath(toNativePath(target))));
  }

  readFile(target: PathUri): Promise<Uint8Array> {
    return fsCall(async () => {
      const native = toNativePath(target);
      const small = this.sync.active ? this.sync.readSmallFile(native) : undefined;
      if (small !== undefined) return small;
      const { handle, size } = await openRegularFile(native);
      try {
        if (size > MAX_READ_FILE_BYTES) throw tooLarge();
        // One read of what stat promised plus room to notice growth: exactly `size` bytes back means
        // the file did not grow, so it costs one read, not a second that finds nothing. Fewer (a
        // network or FUSE file system may read short) or more: the loop below reads on.
        const first = await readOnce(handle, size + GROWTH_PROBE_BYTES);
        if (first.byteLength === size) return first;
        const chunks: Uint8Array[] = [first];
        let total = first.byteLength;
        for (;;) {
          const chunk = await readBlock(handle, total, total < size ? size - total : GROWTH_PROBE_BYTES);
          if (chunk.byteLength === 0) break;
          total += chunk.byteLength;
          if (total > MAX_READ_FILE_BYTES) throw tooLarge();
          chunks.push(chunk);
        }
        return chunks.length === 1 ? chunks[0]! : new Uint8Array(Buffer.concat(chunks, total));
      } finally {
        await handle.close();
      }
    });
  }

  async readFileText(target: PathUri): Promise<string> {
    return decodeUtf8(await this.readFile(target), target);
  }

  async *readFileStream(target: PathUri): AsyncGenerator<Uint8Array> {
    const { handle } = await fsCall(() => openRegularFile(toNativePath(target)));
    try {
      let position = 0;
      for (;;) {
        const chunk = await fsCall(() => readBlock(handle, position, FILE_READ_CHUNK_BYTES));
        if (chunk.byteLength === 0) return;
        position += chunk.byteLength;
        yield chunk;
        if (chunk.byteLength < FILE_READ_CHUNK_BYTES) return;
      }
    } finally {
      await handle.close();
    }
  }

  writeFile(target: PathUri, data: Uint8Array): Promise<void> {
    return fsCall(() => writeFile(toNativePath(target), data));
  }

  createDirectory(target: PathUri, options: CreateDirectoryOptions = {}): Promise<void> {
    return fsCall(async () => {
      const native = toNativePath(target);
      if (options.recursive === true) await makeDirectoryTree(native);
      else await mkdir(native);
    });
  }

  getMetadata(target: PathUri, options: GetMetadataOptions = {}): Promise<FileMetadata> {
    return fsCall(async () => {
      const native = toNativePath(target);
      if (options.followSymlinks === false) {
        await refuseSymlinks(native);
        return metadataOf(await lstat(native), false);
      }
      if (this.sync.active) return this.sync.metadata(native);
      const own = await lstat(native);
      return own.isSymbolicLink() ? metadataOf(await stat(native), true) : metadataOf(own, false);
    });
  }

  readDirectory(target: PathUri): Promise<ReadDirectoryEntry[]> {
    return fsCall(async () => {
      const native = toNativePath(target);
      const dirents: Dirent[] = [];
      for await (const dirent of await opendir(native)) {
        if (dirents.length === MAX_READ_DIRECTORY_ENTRIES) {
          throw new FileSystemError(
            'TooLarge',
            `directory has more than ${MAX_READ_DIRECTORY_ENTRIES} entries; list it with a bounded walk`,
          );
        }
        dirents.push(dirent);
      }
      const entries: ReadDirectoryEntry[] = [];
      for (const dirent of dirents) {
        if (!dirent.isSymbolicLink()) {
          entries.push({ fileName: dirent.name, isDirectory: dirent.isDirectory(), isFile: dirent.isFile() });
          continue;
        }
        const followed = await stat(path.join(native, dirent.name)).catch(() => undefined);
        // A dangling link names nothing, so it is left out (as Codex does).
        if (followed !== undefined) {
          entries.push({ fileName: dirent.name, isDirectory: followed.isDirectory(), isFile: followed.isFile() });
        }
      }
      return entries.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
    });
  }

  walk(target: PathUri, options: WalkOptions): Promise<WalkOutcome> {
    return fsCall(() => walkDirectory(toNativePath(target), options));
  }

  remove(target: PathUri, options: RemoveOptions = {}): Promise<void> {
    return fsCall(async () => {
      const native = toNativePath(target);
      if (target.isRoot) throw new FileSystemError('InvalidArgument', `refusing to remove the root directory ${native}`);
      let info;
      try {
        info = await lstat(native);
      } catch (error) {
        if (options.force === true && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      if (!info.isDirectory()) return unlink(native);
      if (options.recursive === true) return rm(native, { recursive: true, force: false });
      return rmdir(native);
    });
  }

  copy(source: PathUri, destination: PathUri, options: CopyOptions = {}): Promise<void> {
    return fsCall(() => copyPath(toNativePath(source), toNativePath(destination), options.recursive ?? false));
  }
}
