// A host's settings as a nested object (`{ model_providers: { mock: { base_url } } }`) become the
// `-c key=value` overrides config already layers above the files, so an embedded thread is
// configured exactly as `skein exec -c …` would be and no second config path exists.
import { HostError } from './host-error.js';

/** Settings as config.toml would hold them: tables are objects, leaves are TOML scalars or arrays. */
export type SettingsTable = { readonly [key: string]: SettingValue };
export type SettingValue = string | number | boolean | readonly (string | number | boolean)[] | SettingsTable;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** The overrides `table` stands for, one per leaf, in the object's order. */
export function settingsOverrides(table: SettingsTable | undefined, prefix: readonly string[] = []): string[] {
  if (table === undefined) return [];
  const overrides: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    // `-c` splits keys on dots and reads no quoted segments: a key it cannot address is refused here.
    if (!BARE_KEY.test(key)) throw new HostError('InvalidSettings', `settings key '${[...prefix, key].join('.')}' must be letters, digits, '_' or '-'`);
    const path = [...prefix, key];
    if (isTable(value)) overrides.push(...settingsOverrides(value, path));
    else overrides.push(`${path.join('.')}=${tomlValue(value, path)}`);
  }
  return overrides;
}

function isTable(value: SettingValue): value is SettingsTable {
  // JavaScript callers can pass null where the types say no: it is a bad value, not a table.
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON's strings, numbers, booleans and flat arrays of them are TOML values as written. */
function tomlValue(value: SettingValue, path: readonly string[]): string {
  const scalar = (item: unknown): boolean => typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item));
  if (scalar(value) || (Array.isArray(value) && value.every(scalar))) return JSON.stringify(value);
  throw new HostError('InvalidSettings', `settings value of '${path.join('.')}' must be a string, a finite number, a boolean, an array of those, or a table`);
}
