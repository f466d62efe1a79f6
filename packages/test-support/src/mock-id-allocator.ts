// The per-server counters behind deferred ids. Items and call ids share one counter, responses have
// their own, which is how Codex's recordings number them (`fc_mock_0001`, `call_mock_0002`, `resp_mock_0001`).
import { DeferredId, RESPONSE_ID } from './deferred-id.js';
import { isPlainObject } from './internal/plain-object.js';

/** Hands out `<prefix>_mock_NNNN` ids; one allocator lives as long as its server. */
export class MockIdAllocator {
  #items = 0;
  #responses = 0;

  /** The next item or call id with this prefix. */
  nextItemId(prefix: string): string {
    this.#items += 1;
    return formatMockId(prefix, this.#items);
  }

  /** The next response id (`resp_mock_NNNN`). */
  nextResponseId(): string {
    this.#responses += 1;
    return formatMockId(RESPONSE_ID.prefix, this.#responses);
  }

  /**
   * A resolver for one served response: each placeholder instance gets one id, allocated the first
   * time it is met, so an item's `added` and `done` events carry the same id.
   */
  scope(): (id: DeferredId) => string {
    const assigned = new Map<DeferredId, string>();
    return (id) => {
      let value = assigned.get(id);
      if (value === undefined) {
        value = id === RESPONSE_ID ? this.nextResponseId() : this.nextItemId(id.prefix);
        assigned.set(id, value);
      }
      return value;
    };
  }
}

function formatMockId(prefix: string, n: number): string {
  return `${prefix}_mock_${String(n).padStart(4, '0')}`;
}

/** Copies a JSON-like value with every placeholder replaced; keys keep their order, so ids are numbered in reading order. */
export function resolveDeferredIds(value: unknown, resolve: (id: DeferredId) => string): unknown {
  if (value instanceof DeferredId) return resolve(value);
  if (Array.isArray(value)) return value.map((element: unknown) => resolveDeferredIds(element, resolve));
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) copy[key] = resolveDeferredIds(field, resolve);
    return copy;
  }
  return value;
}
