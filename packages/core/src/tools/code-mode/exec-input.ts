// What the model writes for `exec`: JavaScript, optionally after a first line
// `// @exec: {"yield_time_ms": …, "max_output_tokens": …}` (Codex's grammar and pragma fields).
import * as z from 'zod';

/** How long `wait` waits, unless its call says. */
export const DEFAULT_WAIT_YIELD_MS = 10_000;
/** The output tokens a cell's answer keeps, unless the pragma says. */
export const DEFAULT_CELL_OUTPUT_TOKENS = 10_000;
/** The longest a single answer may wait: beyond it a cell is better waited on again. */
export const MAX_YIELD_MS = 600_000;
export const MAX_CELL_OUTPUT_TOKENS = 100_000;

const PRAGMA_LINE = /^[ \t]*\/\/ @exec:([^\r\n]*)(?:\r?\n|$)/;

const ExecPragma = z.strictObject({
  yield_time_ms: z.number().int().min(0).max(MAX_YIELD_MS).optional(),
  max_output_tokens: z.number().int().min(1).max(MAX_CELL_OUTPUT_TOKENS).optional(),
});

/** The grammar `exec` is offered with (Codex's, so the model writes what it was trained to). */
export const EXEC_GRAMMAR = '\nstart: pragma_source | plain_source\npragma_source: PRAGMA_LINE NEWLINE SOURCE\nplain_source: SOURCE\n\nPRAGMA_LINE: /[ \\t]*\\/\\/ @exec:[^\\r\\n]*/\nNEWLINE: /\\r?\\n/\nSOURCE: /[\\s\\S]+/\n';

/** A parsed cell, or why the pragma was refused (the model reads it as exec's output). */
export type ExecInput = { readonly source: string; readonly yieldTimeMs: number; readonly maxOutputTokens: number } | { readonly problem: string };

/** `defaultYieldMs`: how long `exec` waits for a cell before answering that it still runs, unless the pragma says. */
export function parseExecInput(input: string, defaultYieldMs: number): ExecInput {
  const pragma = PRAGMA_LINE.exec(input);
  if (pragma === null) return { source: input, yieldTimeMs: defaultYieldMs, maxOutputTokens: DEFAULT_CELL_OUTPUT_TOKENS };
  let json: unknown;
  try {
    json = JSON.parse(pragma[1]!.trim());
  } catch (error) {
    return { problem: pragmaProblem((error as Error).message) };
  }
  const parsed = ExecPragma.safeParse(json);
  if (!parsed.success) return { problem: pragmaProblem(z.prettifyError(parsed.error).replaceAll('\n', ' ')) };
  return {
    // The pragma's line is a comment: it stays, so positions in errors are the model's own lines.
    source: input,
    yieldTimeMs: parsed.data.yield_time_ms ?? defaultYieldMs,
    maxOutputTokens: parsed.data.max_output_tokens ?? DEFAULT_CELL_OUTPUT_TOKENS,
  };
}

function pragmaProblem(reason: string): string {
  return `exec pragma must be valid JSON with supported fields \`yield_time_ms\` and \`max_output_tokens\` (yield_time_ms up to ${MAX_YIELD_MS}, max_output_tokens 1 to ${MAX_CELL_OUTPUT_TOKENS}): ${reason}`;
}
