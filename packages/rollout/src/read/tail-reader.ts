// The tail reader: a thread's metadata (its first line) and its latest turn context, ordinal and
// timestamp (near its end), read without going through the whole file.
import type { FileHandle } from 'node:fs/promises';
import { openFile, type OpenFile } from '../open-file.js';
import { isUserTurnBoundary, type ContextFragmentOptions } from '../user-turn.js';
import type { ResponseItem } from '@skein/protocol';
import { parseRolloutLine, type RolloutLine } from '../lines/rollout-line.js';
import type { SessionMeta } from '../lines/session-meta.js';
import type { TurnContext } from '../lines/turn-context.js';
import { DEFAULT_MAX_LINE_BYTES } from './line-scanner.js';

/** Bytes read per step, from the start for the header and from the end for the tail. */
export const TAIL_CHUNK_BYTES = 64 * 1024;

/** What `readRolloutTail` finds. */
export interface RolloutTail {
  /** The first line's `session_meta` payload, if the first line is one. */
  readonly meta: SessionMeta | undefined;
  /** The newest `turn_context` that no later rollback removed. */
  readonly lastTurnContext: TurnContext | undefined;
  /** The newest whole line's ordinal, and its timestamp. */
  readonly lastOrdinal: number | undefined;
  readonly lastTimestamp: string | undefined;
  /** The file's size, and how many bytes from its end were read to find the above. */
  readonly fileSize: number;
  readonly bytesScanned: number;
}

/** Options of the tail and head readers. */
export interface TailReadOptions extends ContextFragmentOptions {
  readonly maxLineBytes?: number;
  /** How the file is opened; default the real filesystem's `open`. */
  readonly openFile?: OpenFile;
}

/** Reads the first line of a rollout and returns its `session_meta`, if it is one. */
export async function readRolloutHead(filePath: string, options: TailReadOptions = {}): Promise<SessionMeta | undefined> {
  const handle = await (options.openFile ?? openFile)(filePath, 'r');
  try {
    return await readHead(handle, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  } finally {
    await handle.close();
  }
}

/**
 * Reads the header, then walks back from the end a chunk at a time until it has the newest whole
 * line and the newest surviving turn context (or reaches the start). A torn last line is skipped;
 * rollbacks met on the way skip the turn contexts of the turns they removed.
 */
export async function readRolloutTail(filePath: string, options: TailReadOptions = {}): Promise<RolloutTail> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const handle = await (options.openFile ?? openFile)(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const meta = await readHead(handle, maxLineBytes);
    let lastOrdinal: number | undefined;
    let lastTimestamp: string | undefined;
    let sawNewest = false;
    let lastTurnContext: TurnContext | undefined;
    let pendingRollback = 0;
    let skipContexts = 0;
    let bytesScanned = 0;
    const countBoundary = (): void => {
      if (pendingRollback > 0) {
        pendingRollback -= 1;
        skipContexts += 1;
      }
    };
    // Returns true when the scan can stop.
    const visit = (text: string): boolean => {
      // Once the newest line is known only a few types matter: skip the JSON parse of the rest.
      const markers = pendingRollback > 0 ? ROLLBACK_MARKERS : CONTEXT_MARKERS;
      if (sawNewest && !markers.some((marker) => text.includes(marker))) return false;
      const line = parseLine(text);
      if (line === undefined) return false;
      if (!sawNewest) {
        sawNewest = true;
        lastOrdinal = line.ordinal;
        lastTimestamp = line.timestamp;
      }
      switch (line.type) {
        case 'event_msg': {
          const event = line.payload as { type: string; num_turns?: number };
          if (event.type === 'thread_rolled_back') pendingRollback += event.num_turns ?? 0;
          else if (event.type === 'user_message') countBoundary();
          return false;
        }
        case 'response_item':
          if (isUserTurnBoundary(line.payload as ResponseItem, options.contextFragments)) countBoundary();
          return false;
        case 'inter_agent_communication':
          countBoundary();
          return false;
        case 'turn_context':
          if (skipContexts > 0) {
            skipContexts -= 1;
            return false;
          }
          lastTurnContext = line.payload as TurnContext;
          return true;
        case 'session_meta':
          return true;
        default:
          return false;
      }
    };
    let position = size;
    let carry: Buffer = Buffer.alloc(0);
    let stopped = false;
    scan: while (position > 0) {
      const start = Math.max(0, position - TAIL_CHUNK_BYTES);
      const chunk = Buffer.allocUnsafe(position - start);
      await readFully(handle, chunk, start);
      bytesScanned += chunk.length;
      const buffer = carry.length === 0 ? chunk : Buffer.concat([chunk, carry]);
      position = start;
      let end = buffer.length;
      for (;;) {
        const newline = buffer.lastIndexOf(10, end - 1);
        if (newline === -1) break;
        const text = buffer.toString('utf8', newline + 1, end);
        end = newline;
        if (text.trim() !== '' && visit(text)) {
          stopped = true;
          break scan;
        }
      }
      // What is left before the first newline is the start of a line that began in an earlier chunk.
      carry = buffer.subarray(0, end);
      if (carry.length > maxLineBytes) carry = Buffer.alloc(0);
    }
    if (!stopped && carry.length > 0) visit(carry.toString('utf8'));
    return { meta, lastTurnContext, lastOrdinal, lastTimestamp, fileSize: size, bytesScanned };
  } finally {
    await handle.close();
  }
}

function parseLine(text: string): RolloutLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = parseRolloutLine(value);
  return parsed.ok ? parsed.line : undefined;
}

/** Substrings a line must hold to matter once the newest line is known. */
const CONTEXT_MARKERS = ['"turn_context"', '"thread_rolled_back"', '"session_meta"'];
/** While a rollback is pending, the lines that open user turns matter too. */
const ROLLBACK_MARKERS = [...CONTEXT_MARKERS, '"response_item"', '"user_message"', '"inter_agent_communication"'];

async function readHead(handle: FileHandle, maxLineBytes: number): Promise<SessionMeta | undefined> {
  const pieces: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(TAIL_CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    const newline = chunk.subarray(0, bytesRead).indexOf(10);
    pieces.push(chunk.subarray(0, newline === -1 ? bytesRead : newline));
    if (newline !== -1) break;
    position += bytesRead;
    if (position > maxLineBytes) return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(pieces).toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = parseRolloutLine(value);
  return parsed.ok && parsed.line.type === 'session_meta' ? (parsed.line.payload as SessionMeta) : undefined;
}

async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position + offset);
    if (bytesRead === 0) throw new Error(`file shrank while reading at ${position + offset}`);
    offset += bytesRead;
  }
}
