// Routes the model's tool calls to handlers. Whatever goes wrong — an unknown tool, arguments that do
// not parse, a handler that throws — becomes a tool output the model can read, never a failed turn.
import type { LeafToolHandler, NamespaceToolHandler, ToolHandler, ToolInvocation, ToolResult } from '@skein/extension-api';
import { isKnownResponseItem, toolOutputFor, type ResponseItem, type ToolSpec } from '@skein/protocol';
import { z } from 'zod';

/** A call the router can run: a function call or a custom tool call from the model. */
export type ToolCall = Extract<ResponseItem, { type: 'function_call' | 'custom_tool_call' }>;

/** Whether `item` is a call the router handles. */
export function isToolCall(item: ResponseItem): item is ToolCall {
  return isKnownResponseItem(item) && (item.type === 'function_call' || item.type === 'custom_tool_call');
}

/** The set of tools offered in a turn. Names are unique (per namespace). */
export class ToolRouter {
  readonly #handlers = new Map<string, ToolHandler>();

  constructor(handlers: readonly ToolHandler[]) {
    for (const handler of handlers) {
      const name = nameOf(handler);
      if (this.#handlers.has(name)) throw new Error(`two tools are named '${name}'`);
      if (handler.kind === 'namespace') {
        const inner = handler.tools.map(nameOf);
        const repeated = inner.find((toolName, index) => inner.indexOf(toolName) !== index);
        if (repeated !== undefined) throw new Error(`two tools in namespace '${name}' are named '${repeated}'`);
      }
      this.#handlers.set(name, handler);
    }
  }

  /** The tool definitions for the request, in registration order. */
  specs(): ToolSpec[] {
    return [...this.#handlers.values()].map((handler) =>
      handler.kind === 'namespace'
        ? { type: 'namespace', name: handler.name, description: handler.description, tools: handler.tools.map((tool) => tool.spec) }
        : handler.spec,
    );
  }

  /** Runs one call and returns its output item (`function_call_output` or `custom_tool_call_output`). */
  async dispatch(call: ToolCall, invocation: Omit<ToolInvocation, 'callId'>): Promise<{ item: ResponseItem; success: boolean }> {
    const result = await this.#run(call, { ...invocation, callId: call.call_id });
    return { item: toolOutputFor(call, result.output), success: result.success };
  }

  /** The handler a call names: a top-level tool, or a tool inside the call's namespace. */
  #find(call: ToolCall): LeafToolHandler | string {
    const namespace = call.namespace ?? undefined;
    if (namespace === undefined || namespace === '') {
      const handler = this.#handlers.get(call.name);
      if (handler === undefined) return `unsupported call: ${call.name}`;
      if (handler.kind === 'namespace') return `${call.name} is a namespace; call one of its tools: ${handler.tools.map(nameOf).join(', ')}`;
      return handler;
    }
    const group = this.#handlers.get(namespace);
    if (group?.kind !== 'namespace') return `unsupported call: ${namespace}.${call.name}`;
    return group.tools.find((tool) => tool.spec.name === call.name) ?? `unsupported call: ${namespace}.${call.name}`;
  }

  async #run(call: ToolCall, invocation: ToolInvocation): Promise<ToolResult> {
    const handler = this.#find(call);
    if (typeof handler === 'string') return failure(handler);
    try {
      if (handler.kind === 'custom') {
        if (call.type !== 'custom_tool_call') return failure(`${call.name} takes free-form input, not JSON arguments`);
        return await handler.handle(call.input, invocation);
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
      return await handler.handle(args.data, invocation);
    } catch (error) {
      if (invocation.signal.aborted) throw error;
      return failure(`${call.name} failed: ${(error as Error).message}`);
    }
  }
}

function nameOf(handler: ToolHandler | NamespaceToolHandler): string {
  return handler.kind === 'namespace' ? handler.name : handler.spec.name;
}

function failure(message: string): ToolResult {
  return { output: message, success: false };
}
