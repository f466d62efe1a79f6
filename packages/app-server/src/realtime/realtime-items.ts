// A realtime item in its two spellings: as clients see it (`thread/realtime/item/*`, the list:
// camelCase envelope, camelCase `type`) and as the rollout records it (snake_case throughout). The
// fields of each type keep Codex's spelling in both.
import type { RealtimeItemRecord, WireObject } from '@skein/core';

/** An item's own fields, by type (`frame`'s `channels`, `realtimeSessionClosed`'s `outcome`, …). */
export interface RealtimeItem {
  readonly id: string;
  readonly realtimeSessionId: string;
  readonly observedAtMs: number;
  readonly type: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** The item as clients see it. */
export function wireItem(item: RealtimeItem): WireObject {
  return { id: item.id, realtimeSessionId: item.realtimeSessionId, observedAtMs: item.observedAtMs, type: item.type, ...item.fields };
}

/** The item as recorded. */
export function recordOf(item: RealtimeItem): RealtimeItemRecord {
  return { ...item.fields, id: item.id, realtime_session_id: item.realtimeSessionId, observed_at_ms: item.observedAtMs, type: snakeCase(item.type) };
}

/** A recorded item as clients see it. */
export function wireOfRecord(record: Readonly<Record<string, unknown>> & { readonly id: string; readonly realtime_session_id: string; readonly type: string }): WireObject {
  const { id, realtime_session_id: realtimeSessionId, observed_at_ms: observedAtMs, type, ...fields } = record;
  return { id, realtimeSessionId, observedAtMs: typeof observedAtMs === 'number' ? observedAtMs : null, type: camelCase(type), ...fields };
}

function snakeCase(type: string): string {
  return type.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function camelCase(type: string): string {
  return type.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}
