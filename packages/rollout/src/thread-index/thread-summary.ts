// A thread as the index lists it, and how to read one from its rollout file (the header, the first
// user message, the file's modification time).
import type { ResponseItem } from '@skein/protocol';
import { stat } from 'node:fs/promises';
import * as z from 'zod';
import type { EventMsg } from '../lines/event-msg.js';
import { parentThreadIdOf, sessionIdOf, sourceKindOf, type SessionMeta } from '../lines/session-meta.js';
import type { OpenFile } from '../open-file.js';
import { scanRolloutFile } from '../read/rollout-reader.js';
import { RolloutError } from '../rollout-error.js';
import { isUserTurnBoundary, userMessageText, type ContextFragmentOptions } from '../user-turn.js';
import { lazySchema } from '@skein/protocol';

/** The longest title kept; the first user message is cut to this many characters. */
export const MAX_TITLE_CHARS = 1000;

/** Bytes per read while summarizing: the header and first message are usually in the first few KiB. */
export const SUMMARY_READ_CHUNK_BYTES = 64 * 1024;

/** How many lines from the start are searched for the first user message. */
export const TITLE_SCAN_MAX_LINES = 2000;

/** One thread in the index. Times are ISO 8601 (UTC, milliseconds). */
export const ThreadSummary = lazySchema(() => z.object({
  id: z.string(),
  /** The rollout file; null where the store keeps no file (a database). */
  path: z.string().nullable(),
  cwd: z.string(),
  createdAt: z.string(),
  /** The file's last modification. */
  updatedAt: z.string(),
  /** The first user message, cut to `MAX_TITLE_CHARS`; null before the first turn. */
  title: z.string().nullable(),
  modelProvider: z.string().nullable(),
  /** The model of the thread's latest recorded turn (its first, when read from the file); null before any turn. */
  model: z.string().nullable(),
  /** The source's kind (`exec`, `cli`, `vscode`, `subagent`, …). */
  source: z.string().nullable(),
  archived: z.boolean(),
  parentThreadId: z.string().nullable(),
  /** The root id shared by a tree of threads. */
  sessionId: z.string(),
  forkedFromId: z.string().nullable(),
}));
export type ThreadSummary = z.infer<typeof ThreadSummary>;

/** A summary of a thread the file store keeps: it always has a file. */
export type FileThreadSummary = ThreadSummary & { readonly path: string };

/** The summary fields that come from a thread's header. */
export function summaryFromMeta(
  meta: SessionMeta,
  file: { readonly path: string; readonly archived: boolean; readonly updatedAt: Date },
  title: string | undefined,
  model?: string,
): FileThreadSummary {
  return {
    id: meta.id,
    path: file.path,
    cwd: meta.cwd,
    createdAt: normalizeTime(meta.timestamp) ?? file.updatedAt.toISOString(),
    updatedAt: file.updatedAt.toISOString(),
    title: title === undefined ? null : title.slice(0, MAX_TITLE_CHARS),
    modelProvider: meta.model_provider ?? null,
    model: model ?? null,
    source: sourceKindOf(meta) ?? null,
    archived: file.archived,
    parentThreadId: parentThreadIdOf(meta) ?? null,
    sessionId: sessionIdOf(meta),
    forkedFromId: meta.forked_from_id ?? null,
  };
}

/**
 * Reads a thread's summary from its file: the header, then lines until the first user message (a
 * user turn's message item, an `item_completed` user message, or an older file's `user_message`
 * event) and the first `turn_context` (the model; it precedes the message in Codex's files). Throws `MissingSessionMeta` for a file that is not a thread.
 */
export async function summarizeRolloutFile(filePath: string, archived: boolean, options: { readonly openFile?: OpenFile } & ContextFragmentOptions = {}): Promise<FileThreadSummary> {
  const info = await stat(filePath);
  let meta: SessionMeta | undefined;
  let title: string | undefined;
  let model: string | undefined;
  let lines = 0;
  await scanRolloutFile(filePath, (record) => {
    lines += 1;
    if (record.kind !== 'line') return lines >= TITLE_SCAN_MAX_LINES;
    const line = record.line;
    if (meta === undefined) {
      if (line.type !== 'session_meta') return true;
      meta = line.payload as SessionMeta;
      return false;
    }
    if (model === undefined && line.type === 'turn_context') model = modelOf(line.payload);
    title ??= titleOf(line.type, line.payload, options);
    return (title !== undefined && model !== undefined) || lines >= TITLE_SCAN_MAX_LINES;
  }, { readChunkBytes: SUMMARY_READ_CHUNK_BYTES, ...(options.openFile === undefined ? {} : { openFile: options.openFile }) });
  if (meta === undefined) throw new RolloutError('MissingSessionMeta', `${filePath} does not start with a session_meta line`, filePath, 1);
  return summaryFromMeta(meta, { path: filePath, archived, updatedAt: info.mtime }, title, model);
}

function modelOf(payload: unknown): string | undefined {
  const model = (payload as { model?: unknown } | null)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

function titleOf(type: string, payload: unknown, options: ContextFragmentOptions): string | undefined {
  if (type === 'response_item') {
    const item = payload as ResponseItem;
    return item.type === 'message' && isUserTurnBoundary(item, options.contextFragments) ? userMessageText(item) : undefined;
  }
  if (type !== 'event_msg') return undefined;
  const event = payload as EventMsg & { message?: unknown; item?: { type?: unknown; content?: unknown } };
  if (event.type === 'user_message' && typeof event.message === 'string') return event.message;
  if (event.type === 'item_completed' && event.item?.type === 'UserMessage' && Array.isArray(event.item.content)) {
    const texts = event.item.content.map((part: { text?: unknown }) => part.text).filter((text): text is string => typeof text === 'string');
    return texts.length === 0 ? undefined : texts.join('\n');
  }
  return undefined;
}

function normalizeTime(value: string): string | undefined {
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
