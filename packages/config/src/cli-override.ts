// `-c key=value` overrides, read exactly as Codex reads them: split at the first `=`, a dotted key
// path, the value parsed as a TOML value and, when that fails, taken as the raw (trimmed) string.
import { parse } from 'smol-toml';
import { ConfigError } from './config-error.js';
import { isTable, type TomlTable } from './toml-table.js';

/** One parsed override. `raw` is what the user typed, for messages. */
export interface ConfigOverride {
  readonly raw: string;
  readonly path: readonly string[];
  readonly value: unknown;
}

// A key no user writes, so the wrapper document cannot collide with the value's own text.
const SENTINEL = '__skein_override_value__';

/** Parses one `-c` argument. Throws `InvalidOverride` for a missing `=` or an empty key segment. */
export function parseConfigOverride(raw: string): ConfigOverride {
  const equals = raw.indexOf('=');
  if (equals === -1) {
    throw new ConfigError('InvalidOverride', `-c ${raw}`, undefined, "expected key=value (for example -c model=\"gpt-5.5\")");
  }
  const key = raw.slice(0, equals).trim();
  const text = raw.slice(equals + 1).trim();
  const path = key.split('.');
  if (key === '' || path.some((segment) => segment.trim() === '')) {
    throw new ConfigError('InvalidOverride', `-c ${raw}`, undefined, `'${key}' is not a dotted key path`);
  }
  return { raw, path: path.map((segment) => segment.trim()), value: parseOverrideValue(text) };
}

/** The value as TOML (`42`, `true`, `"x"`, `[1, 2]`, `{ a = 1 }`), else the text itself. */
function parseOverrideValue(text: string): unknown {
  try {
    const document = parse(`${SENTINEL} = ${text}`);
    // A value that smuggles more lines (`1\nother = 2`) is not one value: keep it as text.
    return Object.keys(document).length === 1 ? document[SENTINEL] : text;
  } catch {
    return text;
  }
}

/** The overrides as one table, later ones winning; intermediate tables are created (or replace scalars). */
export function overridesToTable(overrides: readonly ConfigOverride[]): TomlTable {
  const root: TomlTable = {};
  for (const { path, value } of overrides) {
    let table = root;
    for (const segment of path.slice(0, -1)) {
      const next = table[segment];
      table = isTable(next) ? next : (table[segment] = {});
    }
    table[path[path.length - 1]!] = value;
  }
  return root;
}
