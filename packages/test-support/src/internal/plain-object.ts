// Narrowing JSON-like values without a schema, for code that walks arbitrary request and script data.

/** True for `{…}` literals and JSON-parsed objects, false for arrays, class instances and null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
