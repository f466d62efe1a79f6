// The tools a code-mode cell calls through `tools.<name>`: every tool of the thread but the ones the
// model is offered directly, named as Codex names them (a namespace's tool as `<namespace>__<tool>`),
// and bridged to the tool router, so a nested call has the approvals, sandbox and client items of a
// direct one.
import type { LeafToolHandler, ToolHandler, ToolResult } from '@skein/extension-api';
import type { CellTool } from '@skein/code-mode';
import type { CellBinding } from './cell-binding.js';
import { toolDeclaration } from './tool-declaration.js';

/** One tool a cell may call. */
export interface NestedTool {
  /** `exec_command`, `mcp__docs__search`. */
  readonly name: string;
  readonly tool: LeafToolHandler;
  readonly namespace: string | undefined;
  /** Whether the `exec` description lists it (a deferred tool is only in `ALL_TOOLS`). */
  readonly listed: boolean;
  /** Input schemas longer than this (JSON bytes) are declared without their types. */
  readonly maxSchemaBytes?: number | undefined;
}

/** The nested tools of `handlers`, sorted by name as cells see them; of two with one name (`a__b` twice), the first. */
export function nestedTools(handlers: readonly ToolHandler[], maxSchemaBytes?: number): NestedTool[] {
  const all = handlers.flatMap((handler): NestedTool[] => {
    const listed = (handler.exposure ?? 'direct') !== 'deferred';
    if (handler.kind !== 'namespace') return [{ name: handler.spec.name, tool: handler, namespace: undefined, listed, maxSchemaBytes }];
    return handler.tools.map((tool) => ({ name: `${handler.name}__${tool.spec.name}`, tool, namespace: handler.name, listed: listed && (tool.exposure ?? 'direct') !== 'deferred', maxSchemaBytes }));
  });
  const byName = new Map<string, NestedTool>();
  for (const entry of all) if (!byName.has(entry.name)) byName.set(entry.name, entry);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `ALL_TOOLS[i].description`: the tool's own description and its declaration. */
export function nestedDescription(nested: NestedTool): string {
  return `${nested.tool.spec.description}\n\nexec tool declaration:\n\`\`\`ts\ndeclare const tools: { ${toolDeclaration(nested.name, nested.tool, nested.maxSchemaBytes)} };\n\`\`\``;
}

/** The tools as the cell calls them, run through the call the cell is bound to (its `exec`, or a later `wait`). */
export function cellTools(nested: readonly NestedTool[], binding: CellBinding): CellTool[] {
  return nested.map((entry) => ({
    name: entry.name,
    description: nestedDescription(entry),
    async call(json: string): Promise<string> {
      const args = JSON.parse(json) as unknown;
      const input = entry.tool.kind === 'custom' && typeof args === 'string' ? args : (args as never);
      const context = await binding.context();
      const result = await context.dispatch(entry.tool.spec.name, input, entry.namespace === undefined ? {} : { namespace: entry.namespace });
      return resultJson(result);
    },
  }));
}

/**
 * What the cell's promise resolves to: the tool's structured result, else its output (parsed when
 * it is JSON). A failure without a structured result rejects the promise with the output's text.
 */
function resultJson(result: ToolResult): string {
  if (result.structured !== undefined) return JSON.stringify(result.structured);
  const { output } = result;
  const text = typeof output === 'string' ? output : output.flatMap((part) => (part.type === 'input_text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
  if (!result.success) throw new Error(text);
  if (typeof output !== 'string') return JSON.stringify(output);
  try {
    JSON.parse(output);
    return output;
  } catch {
    return JSON.stringify(output);
  }
}
