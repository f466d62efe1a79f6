// Routes the model's tool calls to handlers. Whatever goes wrong — an unknown tool, arguments that do
// not parse, a handler that throws — becomes a tool output the model can read, never a failed turn;
// only a FatalToolError (or an interrupt) propagates.
import { FatalToolError, ToolError, type JsonValue, type LeafToolHandler, type NamespaceToolHandler, type ToolContext, type ToolHandler, type ToolResult } from '@skein/extension-api';
import { isKnownResponseItem, toolOutputFor, withResponseItemMetadata, type AdditionalToolsItem, type ResponseItem, type ToolSearchCallItem, type ToolSpec } from '@skein/protocol';
import * as z from 'zod';
import { ToolSearchIndex } from './tool-search/tool-search-index.js';
import { runToolSearch } from './tool-search/tool-search.js';

/** A call the router can run: a function call or a custom tool call from the model. */
export type ToolCall = Extract<ResponseItem, { type: 'function_call' | 'custom_tool_call' }>;

/** A call's output item, whether the tool succeeded, and what PostToolUse hooks are told it answered when the tool says. */
export interface DispatchedCall {
  readonly item: ResponseItem;
  readonly success: boolean;
  readonly hookResponse?: JsonValue;
}

/** Whether `item` is a call the router handles. */
export function isToolCall(item: ResponseItem): item is ToolCall {
  return isKnownResponseItem(item) && (item.type === 'function_call' || item.type === 'custom_tool_call');
}

/** A tool search the client runs (`tool_search_call` with `execution: "client"`). */
export type ToolSearchCall = ToolSearchCallItem & { readonly call_id: string };

/** Whether `item` is a tool search the client must answer. */
export function isToolSearchCall(item: ResponseItem): item is ToolSearchCall {
  return isKnownResponseItem(item) && item.type === 'tool_search_call' && item.execution === 'client' && typeof item.call_id === 'string';
}

/** Whether `item` asks the client for something: a tool call or a tool search. */
export function isModelCall(item: ResponseItem): item is ToolCall | ToolSearchCall {
  return isToolCall(item) || isToolSearchCall(item);
}

/**
 * Deferred tools that come and go while the thread runs (the namespaces of MCP servers as they
 * become ready): searched and called like the router's own deferred tools, never offered directly.
 */
export interface DeferredToolSource {
  /** The tools there are now. */
  current(): readonly ToolHandler[];
  /** The tools once every source still starting has settled. */
  settled(signal: AbortSignal): Promise<readonly ToolHandler[]>;
}

/** What a router searches and calls besides its own tools. */
export interface ToolRouterOptions {
  /** Tools the API runs itself (and tool_search), offered after the handlers' and never dispatched as calls. */
  readonly hosted?: readonly ToolSpec[];
  readonly deferredSource?: DeferredToolSource | undefined;
  /** The thread's tool_search index (kept across turns). */
  readonly searchIndex?: ToolSearchIndex | undefined;
  /**
   * For a code-mode model: the `additional_tools` item that offers the tools as the first input item
   * (Codex's form for these models), as it is for the next request; the request then has no `tools`.
   */
  readonly additionalTools?: (() => AdditionalToolsItem) | undefined;
}

/** The name a tool is registered under: its own, or its namespace's. */
export function toolName(handler: ToolHandler): string {
  return handler.kind === 'namespace' ? handler.name : handler.spec.name;
}

/**
 * The tools of a thread. Names are unique (per namespace); only `direct` tools are offered, but every
 * tool runs when called.
 */
export class ToolRouter {
  readonly #handlers = new Map<string, ToolHandler>();
  readonly #hosted: readonly ToolSpec[];
  readonly #options: ToolRouterOptions;
  /** The search index of a router made without the thread's. */
  #localIndex: ToolSearchIndex | undefined;

  constructor(handlers: readonly ToolHandler[], options: ToolRouterOptions = {}) {
    this.#options = options;
    this.#hosted = this.#options.hosted ?? [];
    for (const handler of handlers) {
      const name = toolName(handler);
      if (this.#handlers.has(name)) throw new Error(`two tools are named '${name}'`);
      if (handler.kind === 'namespace') {
        const inner = handler.tools.map(toolName);
        const repeated = inner.find((toolName, index) => inner.indexOf(toolName) !== index);
        if (repeated !== undefined) throw new Error(`two tools in namespace '${name}' are named '${repeated}'`);
      }
      this.#handlers.set(name, handler);
    }
  }

  /** The `additional_tools` item a code-mode model is offered its tools in now, if this is such a router. */
  get additionalTools(): AdditionalToolsItem | undefined {
    return this.#options.additionalTools?.();
  }

  /**
   * The definitions offered to the model: the `direct` tools, in registration order (inside
   * namespaces too), then the hosted ones; none for a code-mode router (see `additionalTools`).
   */
  specs(): ToolSpec[] {
    if (this.#options.additionalTools !== undefined) return [];
    const handled = [...this.#handlers.values()].flatMap((handler): ToolSpec[] => {
      if (!isDirect(handler)) return [];
      if (handler.kind !== 'namespace') return [handler.spec];
      const tools = handler.tools.filter(isDirect).map((tool) => tool.spec);
      return tools.length === 0 ? [] : [{ type: 'namespace', name: handler.name, description: handler.description, tools }];
    });
    return [...handled, ...this.#hosted];
  }

  /** The kind of input the tool `name` (in `namespace`) takes, or undefined when there is no such tool. */
  inputKind(name: string, namespace?: string): 'function' | 'custom' | undefined {
    const handler = this.#find(name, namespace);
    return typeof handler === 'string' ? undefined : handler.kind;
  }

  /** Whether a call may run alongside other parallel-safe calls of its response. */
  isParallel(call: ToolCall): boolean {
    const handler = this.#find(call.name, call.namespace);
    return typeof handler !== 'string' && handler.parallel === true;
  }

  /**
   * Runs one call and returns its output item (`function_call_output` or `custom_tool_call_output`).
   *
   * @throws FatalToolError when the handler says the turn cannot go on; the abort reason after an interrupt.
   */
  async dispatch(call: ToolCall, context: Omit<ToolContext, 'callId'>): Promise<DispatchedCall> {
    const result = await this.run(call, { ...context, callId: call.call_id });
    const item = toolOutputFor(call, result.output);
    // The mark travels with the output into history and the rollout, so it survives a resume.
    return {
      item: result.externalContext === true ? withResponseItemMetadata(item, { external_context: true }) : item,
      success: result.success,
      ...(result.hookResponse === undefined ? {} : { hookResponse: result.hookResponse }),
    };
  }

  /** Answers a tool search over every deferred tool: the router's own and the source's (waiting for those still starting). */
  async search(call: ToolSearchCall, signal: AbortSignal): Promise<ResponseItem> {
    const own = [...this.#handlers.values()].filter((handler) => handler.exposure === 'deferred');
    const dynamic = (await this.#options.deferredSource?.settled(signal)) ?? [];
    const index = this.#options.searchIndex ?? (this.#localIndex ??= new ToolSearchIndex());
    return runToolSearch(call, [...own, ...dynamic], index);
  }

  /** Runs one call and returns the tool's own result (for nested calls, whose output is not an item). */
  async run(call: ToolCall, context: ToolContext): Promise<ToolResult> {
    return this.#run(call, context);
  }

  /** The tool `name` names: a top-level tool, or one inside `namespace` (metadata from the namespace); else why not. */
  #find(name: string, namespace: string | null | undefined): LeafToolHandler | string {
    if (namespace === undefined || namespace === null || namespace === '') {
      const handler = this.#handlers.get(name) ?? this.#options.deferredSource?.current().find((candidate) => candidate.kind !== 'namespace' && candidate.spec.name === name);
      if (handler === undefined) return `unsupported call: ${name}`;
      if (handler.kind === 'namespace') return `${name} is a namespace; call one of its tools: ${handler.tools.map(toolName).join(', ')}`;
      return handler;
    }
    const group = this.#handlers.get(namespace) ?? this.#options.deferredSource?.current().find((candidate) => candidate.kind === 'namespace' && candidate.name === namespace);
    if (group?.kind !== 'namespace') return `unsupported call: ${namespace}.${name}`;
    const tool = group.tools.find((candidate) => candidate.spec.name === name);
    return tool === undefined ? `unsupported call: ${namespace}.${name}` : withGroupMetadata(tool, group);
  }

  async #run(call: ToolCall, context: ToolContext): Promise<ToolResult> {
    let handler = this.#find(call.name, call.namespace);
    // A tool of a source still starting (an MCP server coming up) is waited for, not refused.
    if (typeof handler === 'string' && this.#options.deferredSource !== undefined) {
      await this.#options.deferredSource.settled(context.signal);
      handler = this.#find(call.name, call.namespace);
    }
    if (typeof handler === 'string') return failure(handler);
    try {
      if (handler.kind === 'custom') {
        if (call.type !== 'custom_tool_call') return failure(`${call.name} takes free-form input, not JSON arguments`);
        return await handler.handle(call.input, context);
      }
      if (call.type !== 'function_call') return failure(`${call.name} takes JSON arguments, not free-form input`);
      let json: unknown;
      try {
        json = JSON.parse(call.arguments);
      } catch (error) {
        return failure(`failed to parse function arguments: ${(error as Error).message}`);
      }
      const args = handler.arguments.safeParse(json);
      if (!args.success) return failure(`failed to parse function arguments: ${z.prettifyError(args.error)}`);
      return await handler.handle(args.data, context);
    } catch (error) {
      if (context.signal.aborted || error instanceof FatalToolError) throw error;
      if (error instanceof ToolError) return failure(error.message);
      return failure(`${call.name} failed: ${(error as Error).message}`);
    }
  }
}

function isDirect(handler: ToolHandler): boolean {
  return (handler.exposure ?? 'direct') === 'direct';
}

/** A namespaced tool is scheduled as its namespace says, unless it says otherwise itself. */
function withGroupMetadata(tool: LeafToolHandler, group: NamespaceToolHandler): LeafToolHandler {
  return tool.parallel === undefined && group.parallel !== undefined ? { ...tool, parallel: group.parallel } : tool;
}

function failure(message: string): ToolResult {
  return { output: message, success: false };
}
