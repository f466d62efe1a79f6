// Strict UTF-8 decoding for readFileText: invalid bytes are an error that names the file, never U+FFFD.
import type { PathUri } from '@skein/protocol/executor';
import { FileSystemError } from '../file-system-error.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes `bytes` as UTF-8 or throws FileSystemError 'InvalidUtf8' naming `source`. */
export function decodeUtf8(bytes: Uint8Array, source: PathUri): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new FileSystemError('InvalidUtf8', `file is not valid UTF-8: ${source.toString()}`);
  }
}
