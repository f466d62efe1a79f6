// Scoped data stores: each extension keeps its own values per session, thread and turn, without
// globals. Stores are created by the host; an extension sees only its own.
import type { z } from 'zod';
import type { JsonValue } from './world-state-contributor.js';

/** One scope's key/value store for one extension. Values are validated when a schema is given. */
export interface ExtensionData {
  get<T>(key: string, schema?: z.ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * A store that is kept with the thread: values are JSON, recorded in the thread's rollout, and there
 * again after a resume or fork. Values read back are frozen copies of what was set.
 */
export interface DurableExtensionData extends ExtensionData {
  /** @throws RangeError when the serialized value is over the host's limit; TypeError when it is not JSON. */
  set(key: string, value: JsonValue): void;
}

/** The three stores an extension receives with every call. */
export interface ExtensionScopes {
  /** Per host process: shared by a thread and its sub-agents, gone when the process ends. */
  readonly session: ExtensionData;
  /** Per thread, durable: survives resume and fork (a rollback undoes what the rolled-back turns set). */
  readonly thread: DurableExtensionData;
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
