// PreToolUse and PostToolUse around the model's calls, as Codex 0.171.0 runs them (probed):
// `exec_command` is `Bash` with `{command}`, `apply_patch` is `apply_patch` with the patch as
// `command`, an MCP tool is `mcp__<server>__<tool>`, another namespaced tool its namespace and name
// run together (`collaborationspawn_agent`), any other function tool its own name with its arguments.
// `update_plan` and `write_stdin` fire none. A blocked call never runs and the model reads why; an
// allowed `updatedInput` runs in place of the model's input; a PostToolUse block replaces what the
// model reads with the hook's reason; context a hook adds goes just before the call's output.
import type { JsonValue } from '@skein/extension-api';
import { toolOutputFor, type ResponseItem } from '@skein/protocol';
import type { BeforeCallVerdict, ToolCallHooks, ToolCallScope } from '../tools/tool-call-hooks.js';
import type { DispatchedCall, ToolCall } from '../tools/tool-router.js';
import { hookContextMessage, type TurnHookRunner } from './thread-hooks.js';

/** A call as hooks see it. */
interface HookedTool {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Bash and apply_patch: the command or patch, which a blocked call's output repeats. */
  readonly command?: string;
}

// Tools Codex runs no tool hooks for (probed).
const UNHOOKED: ReadonlySet<string> = new Set(['update_plan', 'write_stdin']);

/** The hooks around a turn's calls, or undefined when the thread has no tool hooks (the free path). */
export function hookToolCalls(runner: TurnHookRunner): ToolCallHooks | undefined {
  if (!runner.hasHooks('preToolUse') && !runner.hasHooks('postToolUse')) return undefined;
  return {
    async beforeCall(call: ToolCall, scope: ToolCallScope): Promise<BeforeCallVerdict> {
      const tool = hookedTool(call);
      if (tool === undefined || !runner.handles('preToolUse', tool.name)) return undefined;
      const outcome = await runner.run({ event: 'preToolUse', turnId: scope.turnId, matchValue: tool.name, runSuffix: call.call_id, signal: scope.signal, fields: toolFields(tool, call) });
      if (outcome.blocked !== undefined) {
        const { reason } = outcome.blocked;
        return { blocked: tool.command === undefined ? `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${tool.name}` : `Command blocked by PreToolUse hook: ${reason}. Command: ${tool.command}` };
      }
      return outcome.updatedInput === undefined ? undefined : rewritten(call, tool, outcome.updatedInput);
    },
    async afterCall(call: ToolCall, dispatched: DispatchedCall, scope: ToolCallScope): Promise<readonly ResponseItem[]> {
      const tool = hookedTool(call);
      const output = dispatched.item;
      // A tool that failed before it could run has no answer to tell (Codex fires nothing); a command that exited non-zero did run.
      const ran = dispatched.success || tool?.command !== undefined;
      if (tool === undefined || !ran || !runner.handles('postToolUse', tool.name)) return [output];
      const fields = { ...toolFields(tool, call), tool_response: toolResponse(tool, dispatched) };
      const outcome = await runner.run({ event: 'postToolUse', turnId: scope.turnId, matchValue: tool.name, runSuffix: call.call_id, signal: scope.signal, fields });
      const context = outcome.contexts.map((entry) => hookContextMessage(entry.text));
      return [...context, outcome.blocked === undefined ? output : toolOutputFor(call, outcome.blocked.reason)];
    },
  };
}

/** The tool's hook name and input, for the tools hooks fire on. */
function hookedTool(call: ToolCall): HookedTool | undefined {
  if (call.type === 'custom_tool_call') return call.name === 'apply_patch' && !hasNamespace(call) ? commandTool('apply_patch', call.input) : undefined;
  const args = parseArguments(call.arguments);
  if (!hasNamespace(call)) {
    if (UNHOOKED.has(call.name)) return undefined;
    if (call.name === 'exec_command') return typeof args.cmd === 'string' ? commandTool('Bash', args.cmd) : undefined;
    if (call.name === 'apply_patch') return typeof args.input === 'string' ? commandTool('apply_patch', args.input) : undefined;
    return { name: call.name, input: args };
  }
  const namespace = call.namespace!;
  return { name: namespace.startsWith('mcp__') ? `${namespace}__${call.name}` : `${namespace}${call.name}`, input: args };
}

function commandTool(name: string, command: string): HookedTool {
  return { name, input: { command }, command };
}

function hasNamespace(call: ToolCall): boolean {
  return call.namespace !== undefined && call.namespace !== null && call.namespace !== '';
}

function toolFields(tool: HookedTool, call: ToolCall): Record<string, unknown> {
  return { tool_name: tool.name, tool_input: tool.input, tool_use_id: call.call_id };
}

/**
 * The call the model asked for, with a hook's input in place of its own: Bash and apply_patch take a
 * new `command` (the rest of the model's arguments stay); other tools take the input whole. A
 * command without `command` does not run; the model reads why (Codex's words).
 */
function rewritten(call: ToolCall, tool: HookedTool, input: Readonly<Record<string, unknown>>): BeforeCallVerdict {
  if (tool.command === undefined) {
    if (call.type !== 'function_call') return undefined;
    // The call's environment was chosen (and approved) for the model's input; a hook may not move it (as Codex refuses).
    const from = tool.input.environment_id;
    const to = input.environment_id;
    if (to !== undefined && to !== from) return { blocked: `PreToolUse hook cannot change the tool environment (from ${JSON.stringify(from ?? null)} to ${JSON.stringify(to)})` };
    return { call: { ...call, arguments: JSON.stringify(from === undefined ? input : { ...input, environment_id: from }) } };
  }
  const command = input.command;
  if (typeof command !== 'string') return { blocked: 'hook returned updatedInput without string field `command`' };
  if (call.type === 'custom_tool_call') return { call: { ...call, input: command } };
  const args = parseArguments(call.arguments);
  return { call: { ...call, arguments: JSON.stringify({ ...args, [tool.name === 'Bash' ? 'cmd' : 'input']: command }) } };
}

/** What a hook is told the tool answered: a command's own output (not the header around it), a patch's whole result, what the tool says, else its output. */
function toolResponse(tool: HookedTool, dispatched: DispatchedCall): JsonValue {
  if (dispatched.hookResponse !== undefined) return dispatched.hookResponse;
  const output = (dispatched.item as { output?: unknown }).output;
  if (tool.name === 'Bash' && typeof output === 'string') {
    const marker = output.indexOf('Output:\n');
    return marker === -1 ? output : output.slice(marker + 'Output:\n'.length);
  }
  if (typeof output === 'string') return output;
  return Array.isArray(output) ? (output as JsonValue[]) : '';
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
