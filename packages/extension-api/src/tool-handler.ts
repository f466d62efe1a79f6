// What a tool is: its spec for the model, how its input is parsed, what it does, and how it is
// offered. Core routes calls to these; built-in tools and extensions define them the same way.
import type { CustomToolSpec, FunctionToolSpec } from '@skein/protocol';
import type { z } from 'zod';
import type { ToolContext } from './tool-context.js';
import type { ToolResult } from './tool-result.js';

/**
 * How a tool is offered: `direct` on every request; `deferred` not offered, found and loaded later
 * through `tool_search`; `hidden` never offered. All three run when called.
 */
export type ToolExposure = 'direct' | 'deferred' | 'hidden';

/** How a tool is offered and scheduled. */
export interface ToolMetadata {
  /** Default `direct`. */
  readonly exposure?: ToolExposure;
  /**
   * Whether calls of one response may run alongside other parallel-safe calls. Default false: the
   * call runs alone, after the calls before it finished (as Codex runs `exec_command`).
   */
  readonly parallel?: boolean;
}

/** A function tool: JSON arguments, parsed with `arguments` before `handle` sees them. */
export interface FunctionToolHandler<Args = unknown> extends ToolMetadata {
  readonly kind: 'function';
  readonly spec: FunctionToolSpec;
  readonly arguments: z.ZodType<Args>;
  // Method syntax: a handler of specific arguments still fits a list of handlers of any arguments.
  handle(args: Args, context: ToolContext): Promise<ToolResult>;
}

/** A custom (freeform) tool: raw text input, such as a patch. */
export interface CustomToolHandler extends ToolMetadata {
  readonly kind: 'custom';
  readonly spec: CustomToolSpec;
  handle(input: string, context: ToolContext): Promise<ToolResult>;
}

/** A tool that the model calls by its own name. */
export type LeafToolHandler = FunctionToolHandler | CustomToolHandler;

/**
 * Tools grouped under one name (`skills.list`, `skills.read`): offered as a `namespace` tool, and
 * called with `namespace` beside the inner tool's name.
 */
export interface NamespaceToolHandler extends ToolMetadata {
  readonly kind: 'namespace';
  readonly name: string;
  readonly description: string;
  readonly tools: readonly LeafToolHandler[];
}

/** Any tool the router can dispatch to. */
export type ToolHandler = LeafToolHandler | NamespaceToolHandler;

/** Identity helper that infers a function tool's argument type from its schema. */
export function defineFunctionTool<Args>(tool: Omit<FunctionToolHandler<Args>, 'kind'>): FunctionToolHandler<Args> {
  return { kind: 'function', ...tool };
}

/** Identity helper for a custom (freeform) tool. */
export function defineCustomTool(tool: Omit<CustomToolHandler, 'kind'>): CustomToolHandler {
  return { kind: 'custom', ...tool };
}
