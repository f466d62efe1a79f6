// FileSystemError: every way an executor filesystem call fails, with a stable code that survives the
// wire. It lives here, not in @skein/exec-server, so an extension can catch it without loading the
// executor (its WebSocket client and sandboxing code).
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Stable reasons a filesystem call fails; callers and the JSON-RPC mapping switch on these. */
export const FileSystemErrorCode = lazySchema(() => z.enum([
  'NotFound',
  'AlreadyExists',
  'NotADirectory',
  'IsADirectory',
  'DirectoryNotEmpty',
  'PermissionDenied',
  'ReadOnlyFileSystem',
  'SymlinkLoop',
  'NotAFile',
  'SymlinkNotAllowed',
  'InvalidPath',
  'InvalidArgument',
  'InvalidUtf8',
  'TooLarge',
  'SandboxUnavailable',
  'Io',
]));
export type FileSystemErrorCode = z.infer<typeof FileSystemErrorCode>;

/** Raised by every ExecutorFileSystem implementation, local or remote, for the same failure. */
export class FileSystemError extends Error {
  override readonly name = 'FileSystemError';
  /** Why the call failed. */
  readonly code: FileSystemErrorCode;
  /** The OS error name (`ENOENT`, `ENOSPC`, …) when the OS refused, else undefined. */
  readonly errno: string | undefined;

  constructor(code: FileSystemErrorCode, message: string, errno?: string) {
    super(message);
    this.code = code;
    this.errno = errno;
  }
}
