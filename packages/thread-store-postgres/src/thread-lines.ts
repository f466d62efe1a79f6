// Reading a thread's lines back: in `seq` order, a page of rows at a time so a 20,000-item thread
// is never held twice, each line parsed as the file reader parses it; damaged lines are reported as
// problems, never thrown, and the first line must be the thread's header.
import { RolloutError, parseRolloutLine, type RolloutLine, type RolloutProblem, type SessionMeta, type ThreadReplay } from '@skein/rollout';
import type { Queryable } from './database.js';

/** Rows read per query. */
export const LINE_PAGE_ROWS = 2000;

/** Where a thread's lines are, for problems' `path`: the store keeps no file. */
export function linesLocation(threadId: string): string {
  return `postgres:thread/${threadId}`;
}

/** Calls `visit` with every whole, valid line of `threadId` in order (line numbers are 1-based, as a file's). */
export async function forEachStoredLine(db: Queryable, threadId: string, visit: (line: RolloutLine, lineNumber: number) => void): Promise<ThreadReplay & { readonly lineCount: number }> {
  const problems: RolloutProblem[] = [];
  const where = linesLocation(threadId);
  let meta: SessionMeta | undefined;
  let after = -1;
  let lineCount = 0;
  for (;;) {
    const { rows } = await db.query<{ seq: string; line: string }>('SELECT seq, line FROM skein_rollout_lines WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [threadId, after, LINE_PAGE_ROWS]);
    for (const row of rows) {
      const lineNumber = Number(row.seq) + 1;
      lineCount = lineNumber;
      let value: unknown;
      try {
        value = JSON.parse(row.line);
      } catch (error) {
        problems.push({ kind: 'corrupt-line', path: where, lineNumber, message: `line ${lineNumber} is not JSON: ${(error as Error).message}` });
        continue;
      }
      const parsed = parseRolloutLine(value);
      if (!parsed.ok) {
        problems.push({ kind: 'invalid-line', path: where, lineNumber, message: `line ${lineNumber}: ${parsed.message}` });
        continue;
      }
      if (lineNumber === 1 && parsed.line.type === 'session_meta') meta = parsed.line.payload as SessionMeta;
      visit(parsed.line, lineNumber);
    }
    if (rows.length < LINE_PAGE_ROWS) break;
    after = Number(rows.at(-1)?.seq);
  }
  if (meta === undefined) throw new RolloutError('MissingSessionMeta', `thread ${threadId} in the database does not start with a session_meta line`, where, 1);
  return { meta, problems, lineCount };
}
