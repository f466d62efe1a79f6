// A config key path (`model_providers.mock.name`) as the segments an edit walks.
import { ConfigWriteError } from './config-write-error.js';

/** `keyPath` split at its dots; an empty path or segment is refused. */
export function splitKeyPath(keyPath: string): string[] {
  if (keyPath === '') throw new ConfigWriteError('configValidationError', 'keyPath must not be empty');
  const path = keyPath.split('.');
  if (path.includes('')) throw new ConfigWriteError('configValidationError', `keyPath \`${keyPath}\` has an empty segment`);
  return path;
}
