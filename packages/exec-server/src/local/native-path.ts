// Converting between wire `file:` URIs and this host's native paths; a URI from another OS is refused.
import { PathUri, PathUriError, type PathConvention } from '@skein/protocol/executor';
import { FileSystemError } from '../file-system-error.js';

/** The path syntax of the machine this code runs on. */
export const HOST_CONVENTION: PathConvention = process.platform === 'win32' ? 'windows' : 'posix';

/** The native spelling of `path` on this host; a drive or UNC path on a POSIX host is 'InvalidPath'. */
export function toNativePath(path: PathUri): string {
  try {
    return path.toNativePath(HOST_CONVENTION);
  } catch (error) {
    if (error instanceof PathUriError) {
      throw new FileSystemError('InvalidPath', `'${path.toString()}' is not a path on ${process.platform}`);
    }
    throw error;
  }
}

/** The URI of an absolute native path produced by this host (realpath, readdir joins). */
export function fromNativePath(path: string): PathUri {
  return PathUri.fromNativePath(path, HOST_CONVENTION);
}
