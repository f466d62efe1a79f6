// PreToolUse and PostToolUse around the model's calls, for the tools Codex 0.171.0 runs them for
// (probed): `exec_command` as `Bash` with `{command}`, `apply_patch` with the patch as `command`.
// A blocked call never runs and the model reads why; a PostToolUse block replaces what the model
// reads with the hook's reason; context a hook adds goes just before the call's output.
import { toolOutputFor, type ResponseItem } from '@skein/protocol';
import type { ToolCallHooks, ToolCallScope } from '../tools/tool-call-hooks.js';
import type { ToolCall } from '../tools/tool-router.js';
import { hookContextMessage, type TurnHookRunner } from './thread-hooks.js';

/** A call as hooks see it. */
interface HookedTool {
  readonly name: string;
  readonly command: string;
}

/** The hooks around a turn's calls, or undefined when the thread has no tool hooks (the free path). */
export function hookToolCalls(runner: TurnHookRunner): ToolCallHooks | undefined {
  if (!runner.hasHooks('preToolUse') && !runner.hasHooks('postToolUse')) return undefined;
  return {
    async beforeCall(call: ToolCall, scope: ToolCallScope): Promise<string | undefined> {
      const tool = hookedTool(call);
      if (tool === undefined || !runner.handles('preToolUse', tool.name)) return undefined;
      const outcome = await runner.run({ event: 'preToolUse', turnId: scope.turnId, matchValue: tool.name, runSuffix: call.call_id, signal: scope.signal, fields: toolFields(tool, call) });
      return outcome.blocked === undefined ? undefined : `Command blocked by PreToolUse hook: ${outcome.blocked.reason}. Command: ${tool.command}`;
    },
    async afterCall(call: ToolCall, output: ResponseItem, scope: ToolCallScope): Promise<readonly ResponseItem[]> {
      const tool = hookedTool(call);
      if (tool === undefined || !runner.handles('postToolUse', tool.name)) return [output];
      const fields = { ...toolFields(tool, call), tool_response: toolResponse(tool, outputText(output)) };
      const outcome = await runner.run({ event: 'postToolUse', turnId: scope.turnId, matchValue: tool.name, runSuffix: call.call_id, signal: scope.signal, fields });
      const context = outcome.contexts.map((entry) => hookContextMessage(entry.text));
      return [...context, outcome.blocked === undefined ? output : toolOutputFor(call, outcome.blocked.reason)];
    },
  };
}

/** The tool's hook name and command, for the tools hooks fire on. */
function hookedTool(call: ToolCall): HookedTool | undefined {
  if (call.namespace !== undefined) return undefined;
  if (call.type === 'custom_tool_call') return call.name === 'apply_patch' ? { name: 'apply_patch', command: call.input } : undefined;
  if (call.name !== 'exec_command' && call.name !== 'apply_patch') return undefined;
  const args = parseArguments(call.arguments);
  const command = call.name === 'exec_command' ? args.cmd : args.input;
  if (typeof command !== 'string') return undefined;
  return { name: call.name === 'exec_command' ? 'Bash' : 'apply_patch', command };
}

function toolFields(tool: HookedTool, call: ToolCall): Record<string, unknown> {
  return { tool_name: tool.name, tool_input: { command: tool.command }, tool_use_id: call.call_id };
}

/** What a hook is told the tool answered: a command's own output (not the header around it), a patch's whole result. */
function toolResponse(tool: HookedTool, text: string): string {
  if (tool.name !== 'Bash') return text;
  const marker = text.indexOf('Output:\n');
  return marker === -1 ? text : text.slice(marker + 'Output:\n'.length);
}

function outputText(item: ResponseItem): string {
  const output = (item as { output?: unknown }).output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => ((part as { text?: unknown }).text as string | undefined) ?? '').join('');
  return '';
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
