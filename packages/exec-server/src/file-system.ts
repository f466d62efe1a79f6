// ExecutorFileSystem: the filesystem an agent's tools see, the same whether it is this machine or an
// exec-server elsewhere. Owns the interface and its value types (zod schemas, as they travel on the wire).
import { PathUriString, lazySchema, type PathUri } from '@skein/protocol/executor';
import * as z from 'zod';
import type { FileSystemSandboxContext } from './sandbox-context.js';

/** What `getMetadata` reports. Symlinks are followed unless asked otherwise; `isSymlink` says one was. */
export const FileMetadata = lazySchema(() => z.object({
  isDirectory: z.boolean(),
  isFile: z.boolean(),
  isSymlink: z.boolean(),
  /** Bytes: the file's length, the directory's own size, or the symlink target's. */
  size: z.number().int().nonnegative(),
  /** Birth time in ms since the epoch; 0 where the filesystem records none. */
  createdAtMs: z.number().int(),
  modifiedAtMs: z.number().int(),
}));
export type FileMetadata = z.infer<typeof FileMetadata>;

/** One name in a directory; symlinks are described by their target (dangling ones are left out). */
export const ReadDirectoryEntry = lazySchema(() => z.object({ fileName: z.string(), isDirectory: z.boolean(), isFile: z.boolean() }));
export type ReadDirectoryEntry = z.infer<typeof ReadDirectoryEntry>;

/**
 * Bounds of a walk. `maxDepth` is how deep below the root directories are traversed (0: the root
 * only); `maxDirectories` counts traversed directories, the root included; `maxEntries` counts
 * examined names. Each is capped by the limits in `limits.ts`.
 */
export const WalkOptions = lazySchema(() => z.object({
  maxDepth: z.number().int(),
  maxDirectories: z.number().int(),
  maxEntries: z.number().int(),
  followDirectorySymlinks: z.boolean(),
  /** Report directories whose name starts with `.` but do not descend into them. */
  pruneHiddenDirectories: z.boolean().optional(),
}));
export type WalkOptions = z.infer<typeof WalkOptions>;

/** A file or directory found by a walk. */
export const WalkEntry = lazySchema(() => z.object({ path: PathUriString, kind: z.enum(['directory', 'file']) }));
export type WalkEntry = z.infer<typeof WalkEntry>;

/** A descendant the walk could not inspect; the walk goes on without it. */
export const WalkError = lazySchema(() => z.object({ path: PathUriString, message: z.string() }));
export type WalkError = z.infer<typeof WalkError>;

/** A walk's findings, breadth first and sorted by name within each directory. */
export const WalkOutcome = lazySchema(() => z.object({
  entries: z.array(WalkEntry),
  errors: z.array(WalkError),
  /** True when a bound stopped the walk before it saw everything. */
  truncated: z.boolean(),
}));
export type WalkOutcome = z.infer<typeof WalkOutcome>;

/** Options every call takes. */
export interface FileSystemCallOptions {
  /** When it restricts, the call runs in a sandboxed helper under the same policy as commands. */
  readonly sandbox?: FileSystemSandboxContext | null | undefined;
}

/** `getMetadata` options. */
export interface GetMetadataOptions extends FileSystemCallOptions {
  /** Default true. When false, a path that is (or passes through) a symlink fails with 'SymlinkNotAllowed', as in Codex. */
  readonly followSymlinks?: boolean;
}

/** `createDirectory` options. */
export interface CreateDirectoryOptions extends FileSystemCallOptions {
  /** Create missing parents and accept an existing directory (default false). */
  readonly recursive?: boolean;
}

/** `remove` options. */
export interface RemoveOptions extends FileSystemCallOptions {
  /** Remove a directory with its contents (default false: only an empty directory). */
  readonly recursive?: boolean;
  /** A missing path is not an error (default false). */
  readonly force?: boolean;
}

/** `copy` options. */
export interface CopyOptions extends FileSystemCallOptions {
  /** Required to copy a directory (default false). Symlinks are copied as symlinks. */
  readonly recursive?: boolean;
}

/**
 * A filesystem addressed by `file:` URIs. Every failure is a `FileSystemError` with a stable code,
 * identical for the local implementation and the remote client.
 */
export interface ExecutorFileSystem {
  /** The absolute path with every symlink resolved; the path must exist. */
  canonicalize(path: PathUri, options?: FileSystemCallOptions): Promise<PathUri>;
  /** The whole file (at most `MAX_READ_FILE_BYTES`; use `readFileStream` beyond). */
  readFile(path: PathUri, options?: FileSystemCallOptions): Promise<Uint8Array>;
  /** The whole file as UTF-8 text; fails with 'InvalidUtf8' rather than guess at bytes. */
  readFileText(path: PathUri, options?: FileSystemCallOptions): Promise<string>;
  /** The file in chunks of at most `FILE_READ_CHUNK_BYTES`; breaking out of the loop releases it. */
  readFileStream(path: PathUri, options?: FileSystemCallOptions): AsyncIterable<Uint8Array>;
  /** Creates or replaces the file (through a symlink, its target). The parent must exist. */
  writeFile(path: PathUri, data: Uint8Array, options?: FileSystemCallOptions): Promise<void>;
  createDirectory(path: PathUri, options?: CreateDirectoryOptions): Promise<void>;
  getMetadata(path: PathUri, options?: GetMetadataOptions): Promise<FileMetadata>;
  readDirectory(path: PathUri, options?: FileSystemCallOptions): Promise<ReadDirectoryEntry[]>;
  /** A bounded breadth-first listing; per-path failures are reported, not thrown. */
  walk(path: PathUri, options: WalkOptions, callOptions?: FileSystemCallOptions): Promise<WalkOutcome>;
  /** Removes a file, a symlink (never its target) or a directory. */
  remove(path: PathUri, options?: RemoveOptions): Promise<void>;
  /** Copies a file, a symlink (as a symlink) or, with `recursive`, a directory tree (merging into an existing one). */
  copy(source: PathUri, destination: PathUri, options?: CopyOptions): Promise<void>;
}
