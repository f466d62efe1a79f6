// A rollout brought in from outside (`skein thread import`): every line checked before anything is
// stored, the first a `session_meta` header, so an import is taken whole or refused with the line
// that is wrong.
import { parseRolloutLine, type RolloutLine } from '../lines/rollout-line.js';
import type { SessionMeta } from '../lines/session-meta.js';
import { RolloutError } from '../rollout-error.js';

/** A checked rollout: its header, its lines as text (each one JSON line) and as parsed. */
export interface ImportedRollout {
  readonly meta: SessionMeta;
  readonly texts: readonly string[];
  readonly lines: readonly RolloutLine[];
}

/** Checks the lines of a JSONL rollout (blank lines skipped); throws `CorruptLine` or `MissingSessionMeta` naming the line. */
export async function readImportedRollout(source: AsyncIterable<string> | Iterable<string>, where: string): Promise<ImportedRollout> {
  const texts: string[] = [];
  const lines: RolloutLine[] = [];
  let lineNumber = 0;
  for await (const raw of source) {
    lineNumber += 1;
    const text = raw.trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RolloutError('CorruptLine', `${where}: line ${lineNumber} is not JSON: ${(error as Error).message}`, where, lineNumber);
    }
    const parsed = parseRolloutLine(value);
    if (!parsed.ok) throw new RolloutError('CorruptLine', `${where}: line ${lineNumber}: ${parsed.message}`, where, lineNumber);
    if (lines.length === 0 && parsed.line.type !== 'session_meta') {
      throw new RolloutError('MissingSessionMeta', `${where} does not start with a session_meta line`, where, lineNumber);
    }
    texts.push(text);
    lines.push(parsed.line);
  }
  const header = lines[0];
  if (header === undefined) throw new RolloutError('MissingSessionMeta', `${where} holds no lines`, where, 1);
  return { meta: header.payload as SessionMeta, texts, lines };
}
