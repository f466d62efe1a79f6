import { describe, expect, it } from 'vitest';
import { ITEM_ID_PREFIXES, ThreadId, TurnId, isUuidV7, itemIdPrefix, newItemId, newThreadId, newTurnId } from './ids.js';

const UUID_V7_TAIL = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('thread and turn ids', () => {
  it('mints UUIDv7 thread and turn ids that sort by creation', () => {
    const ids = Array.from({ length: 50 }, () => newThreadId());
    for (const id of ids) expect(isUuidV7(id)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(isUuidV7(newTurnId())).toBe(true);
  });

  it('rejects ids that are not UUIDv7', () => {
    expect(ThreadId.safeParse('6f1c1f0e-8c1a-4b7e-9d2a-0c9e8b7a6f5d').success).toBe(false); // v4
    expect(ThreadId.safeParse('0192f0e6-7c1a-7b7e-9d2a-0C9E8B7A6F5D').success).toBe(false); // upper case
    expect(TurnId.safeParse('not-a-uuid').success).toBe(false);
    expect(ThreadId.safeParse('0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d').success).toBe(true);
  });

  it('uses the injected UUID source', () => {
    expect(newThreadId(() => '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d')).toBe('0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d');
    expect(() => newTurnId(() => 'nope')).toThrow();
  });
});

describe('item ids', () => {
  it.each([
    ['message', 'msg_'],
    ['reasoning', 'rs_'],
    ['function_call', 'fc_'],
    ['function_call_output', 'fco_'],
    ['custom_tool_call', 'ctc_'],
    ['custom_tool_call_output', 'ctco_'],
    ['local_shell_call', 'lsh_'],
    ['web_search_call', 'ws_'],
    ['image_generation_call', 'ig_'],
    ['tool_search_call', 'tsc_'],
    ['tool_search_output', 'tso_'],
    ['additional_tools', 'at_'],
    ['compaction', 'cmp_'],
    ['context_compaction', 'cmp_'],
  ])('gives a %s item the %s prefix and a hyphenated UUIDv7', (type, prefix) => {
    const id = newItemId(type);
    expect(id.startsWith(prefix)).toBe(true);
    expect(UUID_V7_TAIL.test(id.slice(prefix.length))).toBe(true);
  });

  it('covers every prefix in the table', () => {
    expect(Object.keys(ITEM_ID_PREFIXES)).toHaveLength(14);
  });

  it('falls back to item_ for types it does not know, including inherited property names', () => {
    expect(itemIdPrefix('brand_new_item')).toBe('item_');
    expect(itemIdPrefix('toString')).toBe('item_');
  });

  it('refuses a UUID source that does not produce UUIDv7', () => {
    expect(() => newItemId('message', () => '6f1c1f0e-8c1a-4b7e-9d2a-0c9e8b7a6f5d')).toThrow(/not a UUIDv7/);
  });
});
