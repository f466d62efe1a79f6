// A tool's answer, and the two ways a tool fails: one the model reads and reacts to, one that ends
// the turn.
import type { ToolOutputBody } from '@skein/protocol';

/** A tool's answer to the model. `success: false` marks a failure the model should see and react to. */
export interface ToolResult {
  readonly output: ToolOutputBody;
  readonly success: boolean;
}

/** A failure the model sees as the tool's output (`success: false`) and can react to. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** A failure that ends the turn as failed: the thread cannot go on sensibly (a broken invariant, a lost executor). */
export class FatalToolError extends Error {
  override readonly name = 'FatalToolError';
  constructor(
    /** Stable, for clients and logs. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
