// Identifiers on the wire: UUIDv7 thread and turn ids, and Responses-API style item ids
// (`msg_<uuidv7>`, `fc_<uuidv7>`, …) that Codex 0.171.0 gives every input item.
import { v7 as uuidv7 } from 'uuid';
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A source of hyphenated, lower-case UUIDv7 strings; injected so tests can be deterministic. */
export type UuidV7Source = () => string;

/** The default UUIDv7 source (time-ordered, monotonic within a process). */
export const randomUuidV7: UuidV7Source = () => uuidv7();

/** Whether `value` is a hyphenated, lower-case UUID of version 7 and the RFC 9562 variant. */
export function isUuidV7(value: string): boolean {
  return UUID_V7.test(value);
}

/** A thread's id: a UUIDv7, so ids sort by creation time. */
export const ThreadId = lazySchema(() => z.string().regex(UUID_V7, 'expected a UUIDv7 thread id').brand<'ThreadId'>());
export type ThreadId = z.infer<typeof ThreadId>;

/** A turn's id: a UUIDv7. */
export const TurnId = lazySchema(() => z.string().regex(UUID_V7, 'expected a UUIDv7 turn id').brand<'TurnId'>());
export type TurnId = z.infer<typeof TurnId>;

/** Creates a new thread id. */
export function newThreadId(uuid: UuidV7Source = randomUuidV7): ThreadId {
  return ThreadId.parse(uuid());
}

/** Creates a new turn id. */
export function newTurnId(uuid: UuidV7Source = randomUuidV7): TurnId {
  return TurnId.parse(uuid());
}

/**
 * The id prefix of each response item type, following the Responses API's conventions.
 * `msg_`, `fco_`, `ctco_` and `at_` are what Codex 0.171.0 was seen to mint for input items
 * (CODEX-FACTS §1); the others match the ids the Responses API gives the same item types.
 */
export const ITEM_ID_PREFIXES = {
  message: 'msg_',
  reasoning: 'rs_',
  function_call: 'fc_',
  function_call_output: 'fco_',
  custom_tool_call: 'ctc_',
  custom_tool_call_output: 'ctco_',
  local_shell_call: 'lsh_',
  web_search_call: 'ws_',
  image_generation_call: 'ig_',
  tool_search_call: 'tsc_',
  tool_search_output: 'tso_',
  additional_tools: 'at_',
  compaction: 'cmp_',
  context_compaction: 'cmp_',
} as const;

/** A response item type that has an id prefix. */
export type PrefixedItemType = keyof typeof ITEM_ID_PREFIXES;

/** The prefix for an item type, or `item_` for types the table does not know (forward compatible). */
export function itemIdPrefix(type: string): string {
  return Object.hasOwn(ITEM_ID_PREFIXES, type) ? ITEM_ID_PREFIXES[type as PrefixedItemType] : 'item_';
}

/** Mints an item id for `type`: its prefix followed by a hyphenated UUIDv7, e.g. `msg_0192…`. */
export function newItemId(type: string, uuid: UuidV7Source = randomUuidV7): string {
  const value = uuid();
  if (!isUuidV7(value)) throw new TypeError(`UUID source returned '${value}', which is not a UUIDv7`);
  return `${itemIdPrefix(type)}${value}`;
}
