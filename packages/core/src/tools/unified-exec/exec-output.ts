// What exec_command and write_stdin answer the model: Codex 0.171.0's text layout (chunk id, wall
// time, exit code or session id, original token count, output) with the output cut to a token budget.
import { randomBytes } from 'node:crypto';
import { approximateTokens, truncateMiddle } from '../../history/truncate-output.js';

/** One call's result, before it is rendered for the model. */
export interface ExecResponse {
  /** Six hex digits naming this piece of output. */
  readonly chunkId: string;
  readonly wallTimeMs: number;
  /** Set once the process has exited (and then `sessionId` is null). */
  readonly exitCode: number | null;
  /** Set while the process keeps running; `write_stdin` continues it. */
  readonly sessionId: number | null;
  /** Tokens (≈ bytes / 4) of the output before it was cut to the budget. */
  readonly originalTokenCount: number;
  /** The output, possibly cut in the middle. */
  readonly output: string;
  /** The process exited non-zero in a way that looks like the sandbox stopped it. Not shown to the model. */
  readonly sandboxDenied?: boolean;
}

/** A fresh six-hex-digit chunk id. */
export function newChunkId(): string {
  return randomBytes(3).toString('hex');
}

/** Decodes collected bytes (invalid UTF-8 replaced) and cuts them to `maxOutputTokens`. */
export function budgetOutput(bytes: Uint8Array, maxOutputTokens: number): { output: string; originalTokenCount: number } {
  const text = Buffer.from(bytes).toString('utf8');
  return { output: truncateMiddle(text, maxOutputTokens), originalTokenCount: approximateTokens(text) };
}

/** The text the model reads, line by line in Codex's order. */
export function formatExecResponse(response: ExecResponse): string {
  const lines = [`Chunk ID: ${response.chunkId}`, `Wall time: ${(response.wallTimeMs / 1000).toFixed(4)} seconds`];
  if (response.exitCode !== null) lines.push(`Process exited with code ${response.exitCode}`);
  if (response.sessionId !== null) lines.push(`Process running with session ID ${response.sessionId}`);
  lines.push(`Original token count: ${response.originalTokenCount}`, 'Output:', response.output);
  return lines.join('\n');
}

/** The result as code mode's cells receive it (`await tools.exec_command(…)`), keys in Codex's order. */
export function structuredExecResponse(response: ExecResponse): Record<string, string | number> {
  return {
    chunk_id: response.chunkId,
    wall_time_seconds: response.wallTimeMs / 1000,
    ...(response.exitCode === null ? {} : { exit_code: response.exitCode }),
    ...(response.sessionId === null ? {} : { session_id: response.sessionId }),
    original_token_count: response.originalTokenCount,
    output: response.output,
  };
}
