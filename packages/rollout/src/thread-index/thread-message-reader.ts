// Reads the messages a thread's search covers from its rollout: what the user typed and what the
// agent answered, in file order, from a byte offset on, so a file that grew is read from where the
// last reading stopped. Only whole lines are read; a line still being written waits for the next read.
import type { ContextFragmentDefinition, ResponseItem } from '@skein/protocol';
import { parseRolloutLine } from '../lines/rollout-line.js';
import { openFile as openRealFile, type OpenFile } from '../open-file.js';
import { isUserTurnBoundary, userMessageText } from '../user-turn.js';

/** Bytes per read. */
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** The messages found, and the offset just past the last whole line read. */
export interface MessageTexts {
  readonly texts: readonly string[];
  readonly end: number;
}

/** Options of {@link readMessageTexts}. */
export interface MessageReadOptions {
  readonly openFile?: OpenFile;
  /** Context fragments besides the built-ins (extensions'), which are not the user's words. */
  readonly contextFragments?: readonly ContextFragmentDefinition[];
}

/** The user's and agent's message texts of `filePath` from byte `from` on. */
export async function readMessageTexts(filePath: string, from: number, options: MessageReadOptions = {}): Promise<MessageTexts> {
  const handle = await (options.openFile ?? openRealFile)(filePath, 'r');
  const texts: string[] = [];
  let pending: Buffer[] = [];
  let position = from;
  let end = from;
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      let lineStart = 0;
      for (let newline = chunk.indexOf(NEWLINE, 0); newline !== -1 && newline < bytesRead; newline = chunk.indexOf(NEWLINE, lineStart)) {
        pending.push(chunk.subarray(lineStart, newline));
        const text = searchableMessageText(Buffer.concat(pending).toString('utf8'), options.contextFragments);
        if (text !== undefined) texts.push(text);
        pending = [];
        lineStart = newline + 1;
        end = position + lineStart;
      }
      if (lineStart < bytesRead) pending.push(Buffer.from(chunk.subarray(lineStart, bytesRead)));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return { texts, end };
}

/** The text of a line holding a user's or the agent's message (what search covers); undefined for any other line. */
export function searchableMessageText(line: string, fragments: readonly ContextFragmentDefinition[] | undefined): string | undefined {
  // Most lines are not messages: skip them without parsing.
  if (!line.includes('"response_item"') || !line.includes('"message"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = parseRolloutLine(value);
  if (!parsed.ok || parsed.line.type !== 'response_item') return undefined;
  const item = parsed.line.payload as ResponseItem;
  if (item.type !== 'message') return undefined;
  const role = (item as { role?: unknown }).role;
  if (role === 'assistant' || (role === 'user' && isUserTurnBoundary(item, fragments))) {
    const text = userMessageText(item);
    return text === undefined || text.trim() === '' ? undefined : text;
  }
  return undefined;
}
