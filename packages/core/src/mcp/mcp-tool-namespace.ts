// A ready MCP server's tools as the model sees them: one deferred namespace `mcp__<server>` (found
// through tool_search), each tool called back by its own name. A call shows as an `mcpToolCall` item
// and answers the model as Codex does: a wall-time header, then one part per content block.
import { defineFunctionTool, ToolError, type FunctionToolHandler, type JsonValue, type NamespaceToolHandler, type ToolContext, type ToolResult } from '@skein/extension-api';
import { McpClientError, type McpContentBlock, type McpTool, type McpToolResult } from '@skein/mcp-client';
import type { ToolOutputContentItem } from '@skein/protocol';
import * as z from 'zod';
import type { CoreEvent } from '../turn/core-event.js';
import type { McpToolCallTurnItem } from '../turn/turn-item.js';
import { approveMcpCall, type McpApprovalContext } from './mcp-approval.js';
import type { McpConnections, ReadyMcpServer } from './mcp-connections.js';

/** What the tools call through and report to. */
export interface McpToolBinding {
  /** The thread's servers now (the set is replaced on reload). */
  readonly connections: () => McpConnections;
  readonly emit: (event: CoreEvent) => void;
  /** Milliseconds since the epoch, for item times. */
  readonly now: () => number;
  /** Who approves calls that need it. */
  readonly approvals: McpApprovalContext;
}

/** The prefix of every MCP namespace. */
export const MCP_NAMESPACE_PREFIX = 'mcp__';

/** The namespace a server's tools are offered under. */
export function mcpNamespaceName(server: string): string {
  return `${MCP_NAMESPACE_PREFIX}${toolSafe(server)}`;
}

/** The server's tools as a deferred namespace, or undefined when it offers none. */
export function mcpNamespace(server: ReadyMcpServer, binding: McpToolBinding): NamespaceToolHandler | undefined {
  if (server.tools.length === 0) return undefined;
  const names = new Set<string>();
  const tools: FunctionToolHandler[] = [];
  for (const tool of server.tools) {
    const name = toolSafe(tool.name);
    // Two names that only differ in characters the API refuses would collide: the first is kept.
    if (names.has(name)) continue;
    names.add(name);
    tools.push(mcpTool(server, tool, name, binding));
  }
  return {
    kind: 'namespace',
    name: mcpNamespaceName(server.name),
    description: `Tools of the MCP server \`${server.name}\`.`,
    exposure: 'deferred',
    ...(server.config.supports_parallel_tool_calls === true ? { parallel: true } : {}),
    tools,
  };
}

// The model may send `null` or nothing for a tool without parameters.
const McpArguments = z.union([z.record(z.string(), z.unknown()), z.null()]).transform((args) => args ?? {});

function mcpTool(server: ReadyMcpServer, tool: McpTool, name: string, binding: McpToolBinding): FunctionToolHandler<Record<string, unknown>> {
  return defineFunctionTool({
    spec: { type: 'function', name, description: tool.description ?? tool.title ?? '', strict: false, parameters: { ...tool.inputSchema, type: 'object' } },
    arguments: McpArguments,
    handle: (args, context) => callMcpTool(server.name, tool, args, context, binding),
  });
}

async function callMcpTool(serverName: string, tool: McpTool, args: Record<string, unknown>, context: ToolContext, binding: McpToolBinding): Promise<ToolResult> {
  const startedAtMs = binding.now();
  const item = (patch: Partial<McpToolCallTurnItem>): McpToolCallTurnItem => ({
    kind: 'mcpToolCall',
    id: context.callId,
    server: serverName,
    tool: tool.name,
    arguments: args,
    status: 'inProgress',
    result: null,
    error: null,
    durationMs: null,
    readOnlyHint: typeof tool.annotations?.readOnlyHint === 'boolean' ? tool.annotations.readOnlyHint : null,
    startedAtMs,
    completedAtMs: null,
    ...patch,
  });
  const { turnId } = context;
  binding.emit({ type: 'turnItem', phase: 'started', turnId, item: item({}) });
  const finish = (patch: Partial<McpToolCallTurnItem>) => {
    const completedAtMs = binding.now();
    binding.emit({ type: 'turnItem', phase: 'completed', turnId, item: item({ ...patch, durationMs: completedAtMs - startedAtMs, completedAtMs }) });
  };
  const header = () => ({ type: 'input_text' as const, text: `Wall time: ${((binding.now() - startedAtMs) / 1000).toFixed(4)} seconds\nOutput:` });
  let result: McpToolResult;
  try {
    const server = await binding.connections().server(serverName, context.signal);
    const problem = server.client.argumentProblem(tool, args);
    if (problem !== undefined) throw new ToolError(`the arguments do not fit ${tool.name}'s input schema: ${problem}`);
    const approval = await approveMcpCall({ server: serverName, serverConfig: server.config, tool, args, turnId, signal: context.signal }, binding.approvals);
    if (!approval.run) throw new ToolError(approval.reason);
    result = await server.client.callTool(tool.name, args, {
      signal: context.signal,
      onProgress: (progress) => {
        const message = progress.message ?? (progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`);
        binding.emit({ type: 'mcpToolCallProgress', turnId, itemId: context.callId, message });
        context.progress(message);
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finish({ status: 'failed', error: { message } });
    if (context.signal.aborted) throw error;
    // Codex's form for a failure too: the header, then the reason as the output — without the
    // server's stderr, which the user sees in the item's error and the model never does.
    const forModel = error instanceof McpClientError ? error.messageForModel : message;
    return { output: [header(), { type: 'input_text', text: forModel }], success: false, externalContext: true };
  }
  const output: ToolOutputContentItem[] = [header(), ...result.content.map(contentPart)];
  finish({
    status: result.isError === true ? 'failed' : 'completed',
    result: { content: result.content, structuredContent: result.structuredContent ?? null, ...(result._meta === undefined ? {} : { _meta: result._meta }) },
  });
  // Hooks get the server's answer as it came, as Codex gives it (probed).
  // (The result came from the wire as JSON, so it is one.)
  const hookResponse = { content: result.content, ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }), ...(result.isError === undefined ? {} : { isError: result.isError }) } as unknown as JsonValue;
  return { output, success: result.isError !== true, externalContext: true, hookResponse };
}

/** One content block as a part of the model's output: text as text, images as images, anything else as its JSON. */
function contentPart(block: McpContentBlock): ToolOutputContentItem {
  if (block.type === 'text' && typeof block.text === 'string') return { type: 'input_text', text: block.text };
  if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string') {
    return { type: 'input_image', image_url: `data:${block.mimeType};base64,${block.data}` };
  }
  if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null && typeof (block.resource as { text?: unknown }).text === 'string') {
    return { type: 'input_text', text: (block.resource as { text: string }).text };
  }
  return { type: 'input_text', text: JSON.stringify(block) };
}

/** A name the Responses API accepts: characters outside `[A-Za-z0-9_-]` become `_`, at most 64 long. */
function toolSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
}
