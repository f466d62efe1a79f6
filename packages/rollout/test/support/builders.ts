// Test builders: rollout items that read like a transcript, a clock that ticks on demand, and
// temporary home directories.
import { ThreadId, type ResponseItem } from '@skein/protocol';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../src/clock.js';
import type { RolloutItem } from '../../src/lines/rollout-line.js';

/** A user message as Codex 0.171.0 records it (with the `user.text` content kind). */
export function userMessage(text: string, id?: string): ResponseItem {
  return {
    type: 'message',
    ...(id === undefined ? {} : { id }),
    role: 'user',
    content: [{ type: 'input_text', text }],
    internal_chat_message_metadata_passthrough: { content_item_kinds: ['user.text'] },
  };
}

/** A context message in the user role (not a user turn). */
export function environmentContext(cwd: string): ResponseItem {
  return {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }],
    internal_chat_message_metadata_passthrough: { content_item_kinds: ['environments.environment_context'] },
  };
}

export function assistantMessage(text: string, id?: string): ResponseItem {
  return { type: 'message', ...(id === undefined ? {} : { id }), role: 'assistant', content: [{ type: 'output_text', text }], phase: 'final_answer' };
}

export function functionCall(callId: string, name = 'exec_command', args = '{"cmd":"echo hi"}'): ResponseItem {
  return { type: 'function_call', name, arguments: args, call_id: callId };
}

export function functionCallOutput(callId: string, output: string): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
}

/** Wraps a history item as a `response_item` line. */
export function item(payload: ResponseItem, metadata?: Record<string, unknown>): RolloutItem {
  return { type: 'response_item', payload, ...(metadata === undefined ? {} : { metadata }) };
}

export function taskStarted(turnId: string): RolloutItem {
  return { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId } };
}

export function taskComplete(turnId: string, lastAgentMessage?: string): RolloutItem {
  return { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: lastAgentMessage ?? null } };
}

export function turnContext(turnId: string | undefined, cwd = '/workspace', model = 'gpt-5.5'): RolloutItem {
  return {
    type: 'turn_context',
    payload: { ...(turnId === undefined ? {} : { turn_id: turnId }), cwd, model, approval_policy: 'never', sandbox_policy: { type: 'read-only' }, summary: 'auto' },
  };
}

export function rolledBack(numTurns: number): RolloutItem {
  return { type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: numTurns } };
}

/** The lines of one complete user turn: lifecycle, context, the user's message, the given items. */
export function userTurn(turnId: string, text: string, ...items: ResponseItem[]): RolloutItem[] {
  return [taskStarted(turnId), turnContext(turnId), item(userMessage(text)), ...items.map((payload) => item(payload)), taskComplete(turnId)];
}

/** A session_meta payload for files written by hand in tests. */
export function sessionMeta(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { session_id: id, id, timestamp: '2026-11-30T10:00:00.000Z', cwd: '/workspace', originator: 'skein_test', cli_version: '0.0.0', source: 'exec', model_provider: 'mock', ...extra };
}

/** Writes JSON lines (objects are stringified; strings are written as they are). */
export async function writeJsonl(filePath: string, lines: readonly (object | string)[], trailingNewline = true): Promise<void> {
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  await writeFile(filePath, trailingNewline ? `${text}\n` : text);
}

/** Envelopes items as lines with ordinals and a fixed timestamp. */
export function asLines(items: readonly RolloutItem[], firstOrdinal = 0): object[] {
  return items.map((entry, index) => ({ timestamp: '2026-11-30T10:00:00.000Z', ordinal: firstOrdinal + index, ...entry }));
}

/** A clock that starts at `start` and moves `stepMs` forward on every reading. */
export function steppingClock(start = Date.parse('2026-11-30T10:00:00.000Z'), stepMs = 1): Clock & { readonly readings: number } {
  let now = start;
  let readings = 0;
  return {
    now: () => {
      readings += 1;
      const date = new Date(now);
      now += stepMs;
      return date;
    },
    get readings() {
      return readings;
    },
  };
}

/** A fresh temporary home directory; `dispose()` removes it. */
export async function temporaryHome(): Promise<{ readonly home: string; dispose(): Promise<void> } & AsyncDisposable> {
  const home = await mkdtemp(path.join(tmpdir(), 'skein-rollout-'));
  const dispose = () => rm(home, { recursive: true, force: true });
  return { home, dispose, [Symbol.asyncDispose]: dispose };
}

/** Deterministic UUIDv7s for tests: `uuidV7(1)` → `00000000-0000-7000-8000-000000000001`. */
export function uuidV7(n: number): string {
  return `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** `uuidV7(n)` as a `ThreadId`. */
export function threadId(n: number): ThreadId {
  return ThreadId.parse(uuidV7(n));
}

/** A `world_state` line: section snapshots, `full` when they replace every earlier one. */
export function worldState(state: Record<string, unknown>, full?: boolean): RolloutItem {
  return { type: 'world_state', payload: { ...(full === undefined ? {} : { full }), state } };
}

/** A `skein_extension_state` line: sets `key` of `extensionId`'s store, or deletes it when `value` is undefined. */
export function extensionState(extensionId: string, key: string, value?: unknown): RolloutItem {
  return { type: 'skein_extension_state', payload: value === undefined ? { extension_id: extensionId, key, deleted: true } : { extension_id: extensionId, key, value } };
}

/** Token counts in the snake_case form `token_count` events carry. */
export function tokens(input: number, output: number, cached = 0, reasoning = 0): Record<string, number> {
  return { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
}

/** A `token_count` event whose `info` is given as is (Codex writes `null` before the first response). */
export function tokenCount(info: unknown): RolloutItem {
  return { type: 'event_msg', payload: { type: 'token_count', info, rate_limits: null } };
}
