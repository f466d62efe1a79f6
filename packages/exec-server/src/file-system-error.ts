// How OS failures become FileSystemErrors: they keep the errno name and read like Codex's messages
// ("No such file or directory (os error 2)").
import { constants as osConstants } from 'node:os';
import { getSystemErrorMap } from 'node:util';
import { FileSystemError, type FileSystemErrorCode } from '@skein/protocol/executor';

// The class and its codes live in @skein/protocol, so an extension can catch them without loading
// the executor; they stay exported from here for exec-server's own callers.
export { FileSystemError, FileSystemErrorCode } from '@skein/protocol/executor';

const CODE_BY_ERRNO: Readonly<Record<string, FileSystemErrorCode>> = {
  ENOENT: 'NotFound',
  EEXIST: 'AlreadyExists',
  ENOTDIR: 'NotADirectory',
  EISDIR: 'IsADirectory',
  ENOTEMPTY: 'DirectoryNotEmpty',
  EACCES: 'PermissionDenied',
  EPERM: 'PermissionDenied',
  EROFS: 'ReadOnlyFileSystem',
  ELOOP: 'SymlinkLoop',
  ENAMETOOLONG: 'InvalidPath',
  EINVAL: 'InvalidArgument',
};

const ERRNO_NAMES = osConstants.errno as Readonly<Record<string, number>>;

// libuv words some errors differently from the C library; these are the texts Codex's Linux build
// (musl) prints, so both executors say the same thing.
const C_LIBRARY_TEXT: Readonly<Record<string, string>> = {
  EEXIST: 'File exists',
  EISDIR: 'Is a directory',
  ELOOP: 'Symbolic link loop',
  ENAMETOOLONG: 'Filename too long',
  EXDEV: 'Cross-device link',
  EBUSY: 'Resource busy',
  EMFILE: 'No file descriptors available',
  ENOTSUP: 'Not supported',
};

/** The FileSystemErrorCode an OS error name stands for (`Io` for the ones without a closer match). */
export function fileSystemErrorCodeForErrno(errno: string): FileSystemErrorCode {
  return CODE_BY_ERRNO[errno] ?? 'Io';
}

/**
 * The message Codex's executor prints for an OS error, e.g. `No such file or directory (os error 2)`,
 * so logs and clients read the same whichever executor answered.
 */
export function osErrorMessage(errno: string): string {
  const number = ERRNO_NAMES[errno];
  if (number === undefined) return errno;
  const description = C_LIBRARY_TEXT[errno] ?? getSystemErrorMap().get(-number)?.[1] ?? errno;
  return `${description.charAt(0).toUpperCase()}${description.slice(1)} (os error ${number})`;
}

/** The errno name for an `os error N` number, when this OS knows it. */
export function errnoForOsErrorNumber(number: number): string | undefined {
  return getSystemErrorMap().get(-number)?.[0];
}

/** True for a Node system error (it carries an errno `code` such as `ENOENT`). */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((error as NodeJS.ErrnoException).code ?? '');
}

/**
 * Turns whatever a `node:fs` call threw into a FileSystemError. System errors keep their errno;
 * anything else is re-thrown, because it is a bug rather than a filesystem answer.
 */
export function toFileSystemError(error: unknown): FileSystemError {
  if (error instanceof FileSystemError) return error;
  if (isSystemError(error)) {
    return new FileSystemError(fileSystemErrorCodeForErrno(error.code), osErrorMessage(error.code), error.code);
  }
  throw error;
}
