// Extensions' durable thread stores: every change is handed to the thread's recorder (a
// `skein_extension_state` rollout line), and a resumed or forked thread restores the stores from
// what its file replays to. An ephemeral thread's recorder drops the changes; the values stay here.
import { MemoryExtensionData, type DurableExtensionData, type JsonValue } from '@skein/extension-api';
import type { z } from 'zod';

/** The largest value one key may hold, serialized as JSON: a runaway extension cannot bloat the rollout. */
export const MAX_EXTENSION_STATE_VALUE_BYTES = 256 * 1024;

/** One change to an extension's thread store; `value` undefined means the key was deleted. */
export interface ExtensionStateRecord {
  readonly extensionId: string;
  readonly key: string;
  readonly value: JsonValue | undefined;
}

/** A value as kept: frozen, with its JSON text (to skip recording a set that changes nothing). */
interface StoredValue {
  readonly value: JsonValue;
  readonly json: string;
}

/** The thread stores of every extension of one thread. */
export class ThreadExtensionState {
  readonly #record: (change: ExtensionStateRecord) => void;
  readonly #stores = new Map<string, Map<string, StoredValue>>();

  /** `record` persists each change; it is called synchronously, in the order changes are made. */
  constructor(record: (change: ExtensionStateRecord) => void = () => undefined) {
    this.#record = record;
  }

  /** Puts back what the thread's file recorded, without recording it again (resume, fork). */
  restore(entries: readonly { readonly extensionId: string; readonly key: string; readonly value: unknown }[]): void {
    for (const { extensionId, key, value } of entries) {
      const json = JSON.stringify(value);
      this.#storeOf(extensionId).set(key, { value: deepFreeze(JSON.parse(json) as JsonValue), json });
    }
  }

  /** Replaces every store with what the file replays to (after a revert dropped turns), unrecorded. */
  replaceAll(entries: readonly { readonly extensionId: string; readonly key: string; readonly value: unknown }[]): void {
    for (const values of this.#stores.values()) values.clear();
    this.restore(entries);
  }

  /** The store extension `extensionId` sees as its `thread` scope. */
  storeFor(extensionId: string): DurableExtensionData {
    const values = this.#storeOf(extensionId);
    const record = this.#record;
    return {
      get<T>(key: string, schema?: z.ZodType<T>): T | undefined {
        const stored = values.get(key);
        if (stored === undefined) return undefined;
        return schema === undefined ? (stored.value as T) : schema.parse(stored.value);
      },
      set(key: string, value: JsonValue): void {
        const json = serialize(key, value);
        const existing = values.get(key);
        if (existing?.json === json) return;
        if (existing === undefined && values.size >= MemoryExtensionData.MAX_KEYS) {
          throw new RangeError(`an extension store holds at most ${MemoryExtensionData.MAX_KEYS} keys`);
        }
        // Keep the JSON's own copy: what a later turn reads is what a resume would read.
        const copy = deepFreeze(JSON.parse(json) as JsonValue);
        values.set(key, { value: copy, json });
        record({ extensionId, key, value: copy });
      },
      delete(key: string): void {
        if (!values.delete(key)) return;
        record({ extensionId, key, value: undefined });
      },
    };
  }

  /** The keys extension `extensionId`'s store holds, in the order they were first set. */
  keysOf(extensionId: string): string[] {
    return [...(this.#stores.get(extensionId)?.keys() ?? [])];
  }

  #storeOf(extensionId: string): Map<string, StoredValue> {
    let values = this.#stores.get(extensionId);
    if (values === undefined) this.#stores.set(extensionId, (values = new Map<string, StoredValue>()));
    return values;
  }
}

/** The value's JSON text. @throws TypeError when it has none; RangeError when it is over the limit. */
function serialize(key: string, value: JsonValue): string {
  // `unknown`: JSON.stringify gives undefined for functions and symbols, whatever its type says.
  let json: unknown;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`the value of thread key '${key}' is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof json !== 'string') throw new TypeError(`the value of thread key '${key}' is not JSON`);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_EXTENSION_STATE_VALUE_BYTES) {
    throw new RangeError(`the value of thread key '${key}' is ${bytes} bytes as JSON; a thread value holds at most ${MAX_EXTENSION_STATE_VALUE_BYTES}`);
  }
  return json;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
