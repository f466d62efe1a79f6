// Scoped data stores: each extension keeps its own values per session, thread and turn, without
// globals. Stores are created by the host; an extension sees only its own.
import type { z } from 'zod';

/** One scope's key/value store for one extension. Values are validated when a schema is given. */
export interface ExtensionData {
  get<T>(key: string, schema?: z.ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** The three stores an extension receives with every call. */
export interface ExtensionScopes {
  readonly session: ExtensionData;
  readonly thread: ExtensionData;
  /** The turn's store; a fresh, empty store outside a turn. */
  readonly turn: ExtensionData;
}

/** An in-memory store with a bounded number of keys (a runaway extension cannot grow it forever). */
export class MemoryExtensionData implements ExtensionData {
  static readonly MAX_KEYS = 10_000;
  readonly #values = new Map<string, unknown>();

  get<T>(key: string, schema?: z.ZodType<T>): T | undefined {
    if (!this.#values.has(key)) return undefined;
    const value = this.#values.get(key);
    return schema === undefined ? (value as T) : schema.parse(value);
  }

  set(key: string, value: unknown): void {
    if (!this.#values.has(key) && this.#values.size >= MemoryExtensionData.MAX_KEYS) {
      throw new RangeError(`an extension store holds at most ${MemoryExtensionData.MAX_KEYS} keys`);
    }
    this.#values.set(key, value);
  }

  delete(key: string): void {
    this.#values.delete(key);
  }
}
