// Per-request expectations attached to a scripted response: a predicate, or a partial body that the
// request's JSON body must contain. A mismatch is described precisely enough to fix the test.
import type { CapturedRequest } from './captured-request.js';
import { isPlainObject } from './internal/plain-object.js';

/** Decides whether a request is the one a scripted response was meant for; may throw to explain why not. */
export type RequestPredicate = (request: CapturedRequest) => boolean;

/**
 * A partial body: every key given must be present with a matching value. Objects match by subset,
 * arrays element by element with equal length, a `RegExp` matches a string, anything else by `Object.is`.
 * @example { model: 'gpt-5.5', stream: true, reasoning: { effort: 'medium' } }
 */
export interface PartialBody {
  readonly [key: string]: unknown;
}

/** A predicate or a partial body. */
export type RequestMatcher = RequestPredicate | PartialBody;

/** Why `request` does not match, or `undefined` when it does. */
export function describeRequestMismatch(matcher: RequestMatcher, request: CapturedRequest): string | undefined {
  if (typeof matcher !== 'function') return describeValueMismatch(matcher, request.json, 'body');
  try {
    return matcher(request) ? undefined : `the predicate ${matcher.name === '' ? '' : `${matcher.name} `}returned false`;
  } catch (error) {
    return `the predicate threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Compares `actual` with a partial `expected` value; the answer names the first differing path. */
export function describeValueMismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (expected instanceof RegExp) {
    return typeof actual === 'string' && expected.test(actual)
      ? undefined
      : `${path}: expected a string matching ${String(expected)}, got ${preview(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${preview(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    }
    for (const [index, element] of expected.entries()) {
      const mismatch = describeValueMismatch(element, actual[index], `${path}[${index}]`);
      if (mismatch !== undefined) return mismatch;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return `${path}: expected an object, got ${preview(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const mismatch = describeValueMismatch(value, Object.hasOwn(actual, key) ? actual[key] : undefined, `${path}.${key}`);
      if (mismatch !== undefined) return mismatch;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : `${path}: expected ${preview(expected)}, got ${preview(actual)}`;
}

const PREVIEW_CHARS = 120;

function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
