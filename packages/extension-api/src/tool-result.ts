// A tool's answer, and the two ways a tool fails: one the model reads and reacts to, one that ends
// the turn.
import type { ToolOutputBody } from '@skein/protocol';
import type { JsonValue } from './world-state-contributor.js';

/** A tool's answer to the model. `success: false` marks a failure the model should see and react to. */
export interface ToolResult {
  readonly output: ToolOutputBody;
  readonly success: boolean;
  /**
   * The output carries content from outside the thread's machine and environments (an
   * orchestrator's or MCP server's skills, a web page). The host records the mark with the output
   * (its `metadata.external_context`, kept in the rollout), as Codex marks such outputs so that
   * what is learnt from the thread (memories) can leave it out.
   */
  readonly externalContext?: boolean;
  /**
   * The result as a value, for a code-mode cell that called the tool (`await tools.exec_command(…)`
   * resolves to it): exec_command's `{chunk_id, wall_time_seconds, exit_code, …}`, apply_patch's
   * `{}`. Without it the cell gets the output (parsed when it is JSON text).
   */
  readonly structured?: JsonValue;
  /**
   * What PostToolUse hooks are told the tool answered (`tool_response`): an MCP tool's
   * `CallToolResult`. Without it they get the output (its text, or its content items).
   */
  readonly hookResponse?: JsonValue;
}

// An extension may carry its own copy of this package (another version, another install); the host
// recognises these errors by a registered brand, so `instanceof` holds across copies.
const TOOL_ERROR = Symbol.for('@skein/extension-api/ToolError');
const FATAL_TOOL_ERROR = Symbol.for('@skein/extension-api/FatalToolError');

/** `instanceof` for the branded class itself; a subclass keeps the ordinary prototype check. */
function isInstance(constructor: object, base: object, value: unknown, brand: symbol): boolean {
  if (constructor !== base) return Function.prototype[Symbol.hasInstance].call(constructor, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/** A failure the model sees as the tool's output (`success: false`) and can react to. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly [TOOL_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isInstance(this, ToolError, value, TOOL_ERROR);
  }
}

/** A failure that ends the turn as failed: the thread cannot go on sensibly (a broken invariant, a lost executor). */
export class FatalToolError extends Error {
  override readonly name = 'FatalToolError';
  readonly [FATAL_TOOL_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isInstance(this, FatalToolError, value, FATAL_TOOL_ERROR);
  }

  constructor(
    /** Stable, for clients and logs. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
