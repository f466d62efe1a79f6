// How config keys and values are spelled in messages: dotted TOML keys (quoted where TOML needs it)
// and short, single-line renderings of the offending value.

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const MAX_SHOWN_CHARS = 40;

/**
 * A dotted TOML key such as `features.rollout_budget.limit_tokens`. Segments that are not bare keys
 * are quoted (`features."guardianv2.thread_context"`); array indexes render as `[0]`.
 */
export function dottedKey(segments: readonly PropertyKey[]): string {
  let key = '';
  for (const segment of segments) {
    if (typeof segment === 'number') {
      key += `[${segment}]`;
      continue;
    }
    const text = String(segment);
    const part = BARE_KEY.test(text) ? text : JSON.stringify(text);
    key += key === '' ? part : `.${part}`;
  }
  return key;
}

/** A short rendering of a config value for an error message; long strings are cut. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return 'a table';
}

/** True for a TOML table as parsers hand it over: a plain object, not an array, date or class instance. */
export function isTable(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
