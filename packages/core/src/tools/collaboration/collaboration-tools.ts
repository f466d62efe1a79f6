// The `collaboration` namespace (multi-agent v2): spawn_agent, send_message, followup_task,
// wait_agent, list_agents and interrupt_agent, with Codex 0.171.0's names, parameters and outputs
// (probed; the descriptions are ours). Each tool acts on the caller's agent tree; what the tree
// refuses is a ToolError the model reads.
import { defineFunctionTool, ToolError, type NamespaceToolHandler, type ToolContext } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import type { AgentNode, AgentTree } from '../../agents/agent-tree.js';
import type { CoreEvent } from '../../turn/core-event.js';
import type { CollabAgentToolCallTurnItem, SubAgentActivityTurnItem } from '../../turn/turn-item.js';

/** wait_agent's bounds and default, in milliseconds (Codex's). */
export const WAIT_TIMEOUT_MS = { min: 10_000, max: 3_600_000, default: 30_000 } as const;

/** What the tools act on: the session's tree and the calling agent. */
export interface CollaborationBinding {
  readonly tree: AgentTree;
  readonly caller: () => AgentNode | undefined;
  readonly emit: (event: CoreEvent) => void;
  readonly now: () => number;
}

const message = { type: 'string', description: 'What to tell the agent. Write it as a complete brief: the agent sees nothing else of this conversation.', encrypted: true } as const;
const target = { type: 'string', description: "The agent: its path (`/root/worker`), or a child's or sibling's task name." } as const;

/** A function tool's spec with an object of `properties` (strict off, no extra keys), as every collaboration tool's. */
export function spec(name: string, description: string, properties: Record<string, unknown>, required: readonly string[]): FunctionToolSpec {
  return { type: 'function', name, description, strict: false, parameters: { type: 'object', properties, ...(required.length === 0 ? {} : { required: [...required] }), additionalProperties: false } };
}

// Specs and argument schemas are built once here, not per thread: every thread of an agent tree
// binds the namespace, and zod schemas are large (each compiles its own parser) (issue #43).
const FOLLOWUP_TASK = spec('followup_task', 'Give an agent more work. An idle or finished agent starts working on it at once; a working one reads it at its next step.', { message, target }, ['target', 'message']);
const SEND_MESSAGE = spec('send_message', 'Send a message to a working agent; it reads it at its next step. It does not wake an idle agent (use followup_task).', { message, target }, ['target', 'message']);
const INTERRUPT_AGENT = spec('interrupt_agent', "Stop an agent's current work. It keeps its history and can be given more work with followup_task.", { target }, ['target']);
const LIST_AGENTS = spec('list_agents', 'List the agents of this session with their status (a finished one with its final answer).', { path_prefix: { type: 'string', description: 'Only agents at or under this path.' } }, []);
const SPAWN_AGENT = spec(
  'spawn_agent',
  'Start a sub-agent on a task. It works in its own thread, with the same workspace and permissions, and its final answer comes back to you; wait_agent waits for it.',
  {
    fork_turns: { type: 'string', description: '`none` (the default): the agent starts fresh. `all`: it starts with a copy of this conversation.' },
    message,
    model: { type: 'string', description: 'The model the agent uses; by default this thread’s.' },
    reasoning_effort: { type: 'string', description: 'The reasoning effort the agent uses; by default this thread’s.' },
    task_name: { type: 'string', description: 'A short name for the task: lower-case letters, digits and underscores. The agent’s path is yours plus this name.' },
  },
  ['task_name', 'message'],
);
const WAIT_AGENT = spec('wait_agent', 'Wait until one of your agents finishes or sends you something, or until the timeout. Its answer arrives as a message right after.', { timeout_ms: { type: 'number', description: `How long to wait at most, in milliseconds (${WAIT_TIMEOUT_MS.min} to ${WAIT_TIMEOUT_MS.max}; default ${WAIT_TIMEOUT_MS.default}).` } }, []);
const TargetAndMessage = z.object({ target: z.string().min(1, 'target must name an agent'), message: z.string() });
const InterruptArgs = z.object({ target: z.string().min(1, 'target must name an agent') });
const ListArgs = z.object({ path_prefix: z.string().optional() });
const SpawnArgs = z.object({
  task_name: z.string(),
  message: z.string(),
  fork_turns: z.enum(['all', 'none'], { error: 'fork_turns is "all" or "none"' }).optional(),
  model: z.string().min(1).optional(),
  reasoning_effort: z.string().min(1).optional(),
});
const WaitArgs = z.object({
  timeout_ms: z
    .number()
    .int('timeout_ms must be a whole number of milliseconds')
    .min(WAIT_TIMEOUT_MS.min, `timeout_ms must be at least ${WAIT_TIMEOUT_MS.min}`)
    .max(WAIT_TIMEOUT_MS.max, `timeout_ms must be at most ${WAIT_TIMEOUT_MS.max}`)
    .optional(),
});

/** The namespace, bound to one thread's place in its tree. */
export function collaborationTools(binding: CollaborationBinding): NamespaceToolHandler {
  const callerOf = (): AgentNode => {
    const caller = binding.caller();
    if (caller === undefined) throw new ToolError('this thread is not part of an agent tree');
    return caller;
  };
  const rootTurnOf = (caller: AgentNode, context: ToolContext) => caller.parent?.rootTurnId ?? context.turnId;
  // send_message and followup_task differ only in whether the message is a new task.
  const messageTool = (toolSpec: FunctionToolSpec, followup: boolean) =>
    defineFunctionTool({
      spec: toolSpec,
      arguments: TargetAndMessage,
      handle: (args, context) => {
        binding.tree.send(callerOf(), args.target, args.message, followup, context.callId);
        return Promise.resolve({ output: '', success: true });
      },
    });
  return {
    kind: 'namespace',
    name: 'collaboration',
    description: 'Work with sub-agents: threads of their own that take a task, work on it alone, and report back.',
    tools: [
      messageTool(FOLLOWUP_TASK, true),
      defineFunctionTool({
        spec: INTERRUPT_AGENT,
        arguments: InterruptArgs,
        handle: (args) => Promise.resolve({ output: JSON.stringify({ previous_status: binding.tree.interrupt(callerOf(), args.target) }), success: true }),
      }),
      defineFunctionTool({
        spec: LIST_AGENTS,
        arguments: ListArgs,
        handle: (args) => Promise.resolve({ output: JSON.stringify({ agents: binding.tree.list(args.path_prefix) }), success: true }),
      }),
      messageTool(SEND_MESSAGE, false),
      defineFunctionTool({
        // Spawns of one response open their threads together (names are reserved before any opens).
        parallel: true,
        spec: SPAWN_AGENT,
        arguments: SpawnArgs,
        handle: async (args, context) => {
          const caller = callerOf();
          const child = await binding.tree.spawn(
            caller,
            { taskName: args.task_name, message: args.message, forkTurns: args.fork_turns ?? 'none', model: args.model, reasoningEffort: args.reasoning_effort },
            { turnId: context.turnId, rootTurnId: rootTurnOf(caller, context), callId: context.callId, tellParent: binding.emit },
          );
          // The parent's clients see the spawn as a `subAgentActivity` item under the call's id.
          const now = binding.now();
          const activity: SubAgentActivityTurnItem = {
            kind: 'subAgentActivity',
            id: context.callId,
            activity: 'started',
            agentThreadId: child.threadId,
            agentPath: child.path,
            model: child.handle?.config.model ?? null,
            reasoningEffort: child.handle?.config.modelReasoningEffort ?? null,
            startedAtMs: now,
            completedAtMs: now,
          };
          binding.emit({ type: 'turnItem', phase: 'started', turnId: context.turnId, item: { ...activity, completedAtMs: null } });
          binding.emit({ type: 'turnItem', phase: 'completed', turnId: context.turnId, item: activity });
          return { output: JSON.stringify({ task_name: child.path }), success: true };
        },
      }),
      defineFunctionTool({
        spec: WAIT_AGENT,
        arguments: WaitArgs,
        handle: async (args, context) => {
          const caller = callerOf();
          const item = (status: CollabAgentToolCallTurnItem['status'], completedAtMs: number | null, startedAtMs: number): CollabAgentToolCallTurnItem => ({
            kind: 'collabAgentToolCall',
            id: context.callId,
            tool: 'wait',
            status,
            senderThreadId: caller.threadId,
            receiverThreadIds: [],
            agentsStates: {},
            startedAtMs,
            completedAtMs,
          });
          const startedAtMs = binding.now();
          binding.emit({ type: 'turnItem', phase: 'started', turnId: context.turnId, item: item('inProgress', null, startedAtMs) });
          let waited: { readonly timedOut: boolean };
          try {
            waited = await binding.tree.wait(caller, args.timeout_ms ?? WAIT_TIMEOUT_MS.default, context.signal);
          } finally {
            binding.emit({ type: 'turnItem', phase: 'completed', turnId: context.turnId, item: item(context.signal.aborted ? 'failed' : 'completed', binding.now(), startedAtMs) });
          }
          return { output: JSON.stringify({ message: waited.timedOut ? 'Wait timed out.' : 'Wait completed.', timed_out: waited.timedOut }), success: true };
        },
      }),
    ],
  };
}
