// Routes the model's tool calls to handlers. Whatever goes wrong — an unknown tool, arguments that do
// not parse, a handler that throws — becomes a tool output the model can read, never a failed turn.
import type { ToolHandler, ToolInvocation, ToolResult } from '@skein/extension-api';
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
      if (this.#handlers.has(handler.spec.name)) throw new Error(`two tools are named '${handler.spec.name}'`);
      this.#handlers.set(handler.spec.name, handler);
    }
  }

  /** The tool definitions for the request, in registration order. */
  specs(): ToolSpec[] {
    return [...this.#handlers.values()].map((handler) => handler.spec);
  }

  /** Runs one call and returns its output item (`function_call_output` or `custom_tool_call_output`). */
  async dispatch(call: ToolCall, invocation: Omit<ToolInvocation, 'callId'>): Promise<{ item: ResponseItem; success: boolean }> {
    const result = await this.#run(call, { ...invocation, callId: call.call_id });
    return { item: toolOutputFor(call, result.output), success: result.success };
  }

  async #run(call: ToolCall, invocation: ToolInvocation): Promise<ToolResult> {
    const handler = this.#handlers.get(call.name);
    if (handler === undefined) return failure(`unsupported call: ${call.name}`);
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

function failure(message: string): ToolResult {
  return { output: message, success: false };
}
