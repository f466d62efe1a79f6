// What a tool is: its spec for the model, how its input is parsed, and what it does. Core routes
// calls to these; extensions contribute them.
import type { CustomToolSpec, FunctionToolSpec, ToolOutputBody } from '@skein/protocol';
import type { z } from 'zod';

/** What a running tool knows about its call. */
export interface ToolInvocation {
  readonly callId: string;
  readonly turnId: string;
  /** Aborted when the turn is interrupted. */
  readonly signal: AbortSignal;
}

/** A tool's answer to the model. `success: false` marks a failure the model should see and react to. */
export interface ToolResult {
  readonly output: ToolOutputBody;
  readonly success: boolean;
}

/** A function tool: JSON arguments, parsed with `arguments` before `handle` sees them. */
export interface FunctionToolHandler<Args> {
  readonly kind: 'function';
  readonly spec: FunctionToolSpec;
  readonly arguments: z.ZodType<Args>;
  handle(args: Args, invocation: ToolInvocation): Promise<ToolResult>;
}

/** A custom (freeform) tool: raw text input, such as a patch. */
export interface CustomToolHandler {
  readonly kind: 'custom';
  readonly spec: CustomToolSpec;
  handle(input: string, invocation: ToolInvocation): Promise<ToolResult>;
}

/** A tool that the model calls by its own name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers of different argument types share one list; each parses its own
export type LeafToolHandler = FunctionToolHandler<any> | CustomToolHandler;

/**
 * Tools grouped under one name (`skills.list`, `skills.read`): offered as a `namespace` tool, and
 * called with `namespace` beside the inner tool's name.
 */
export interface NamespaceToolHandler {
  readonly kind: 'namespace';
  readonly name: string;
  readonly description: string;
  readonly tools: readonly LeafToolHandler[];
}

/** Any tool the router can dispatch to. */
export type ToolHandler = LeafToolHandler | NamespaceToolHandler;
