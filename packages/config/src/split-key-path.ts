// A config key path (`model_providers.mock.name`) as the segments an edit walks.
import { ConfigWriteError } from './config-write-error.js';

/**
 * `keyPath` split at its dots, or taken as segments already (for keys that hold a dot themselves,
 * such as `plugins."a.b@market"`); an empty path or segment is refused.
 */
export function splitKeyPath(keyPath: string | readonly string[]): string[] {
  if (typeof keyPath !== 'string') {
    if (keyPath.length === 0 || keyPath.includes('')) throw new ConfigWriteError('configValidationError', `keyPath [${keyPath.join(', ')}] has an empty segment`);
    return [...keyPath];
  }
  if (keyPath === '') throw new ConfigWriteError('configValidationError', 'keyPath must not be empty');
  const path = keyPath.split('.');
  if (path.includes('')) throw new ConfigWriteError('configValidationError', `keyPath \`${keyPath}\` has an empty segment`);
  return path;
}
