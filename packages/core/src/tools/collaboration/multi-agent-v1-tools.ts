// The `multi_agent_v1` namespace: the sub-agent tools of models not trained on multi-agent v2
// (gpt-5.5), deferred behind tool_search as Codex 0.171.0 offers them. spawn_agent, send_input,
// wait_agent, close_agent and resume_agent, with Codex's names, parameters and outputs (probed;
// the descriptions are ours). Agents are named by thread id; every call is a `collabAgentToolCall`
// item for clients.
import { defineFunctionTool, ToolError, type LeafToolHandler, type NamespaceToolHandler, type ToolContext } from '@skein/extension-api';
import * as z from 'zod';
import type { AgentNode, AgentTree } from '../../agents/agent-tree.js';
import type { AgentStatus } from '../../agents/agent-status.js';
import { statusWire } from '../../agents/agent-status.js';
import type { CoreEvent } from '../../turn/core-event.js';
import type { CollabAgentState, CollabAgentToolCallTurnItem } from '../../turn/turn-item.js';
import { agentNickname } from '../../thread-open.js';
import { spec, WAIT_TIMEOUT_MS } from './collaboration-tools.js';

/** What the tools act on: the session's tree, the calling agent, and the caller's model settings. */
export interface MultiAgentV1Binding {
  readonly tree: AgentTree;
  readonly caller: () => AgentNode | undefined;
  readonly emit: (event: CoreEvent) => void;
  readonly now: () => number;
  /** The caller's model and effort now (a spawn inherits them unless it names others). */
  readonly settings: () => { readonly model: string; readonly reasoningEffort: string | undefined };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One structured input item; Skein takes its text (other kinds are refused with a reason). */
const InputItem = z.object({ type: z.string().optional(), text: z.string().optional(), image_url: z.string().optional(), audio_url: z.string().optional(), path: z.string().optional(), name: z.string().optional() });
// Argument schemas are built once here, not per thread (see collaboration-tools.ts).
const WaitArgs = z.object({ targets: z.array(z.string()).min(1, 'targets must name at least one agent'), timeout_ms: z.number().optional() });
const SendInputArgs = z.object({ target: z.string(), message: z.string().optional(), items: z.array(InputItem).optional(), interrupt: z.boolean().optional() });
const SpawnArgs = z.object({ message: z.string().optional(), items: z.array(InputItem).optional(), fork_context: z.boolean().optional(), model: z.string().min(1).optional(), reasoning_effort: z.string().min(1).optional() });
const IdArgs = z.object({ id: z.string() });
const TargetArgs = z.object({ target: z.string() });
const inputItemSchema = {
  type: 'object',
  properties: {
    audio_url: { type: 'string', description: 'An audio data URL (type audio).' },
    image_url: { type: 'string', description: 'An image URL (type image).' },
    name: { type: 'string', description: 'A display name (type skill or mention).' },
    path: { type: 'string', description: 'A path (local_image, local_audio, skill) or a mention target.' },
    text: { type: 'string', description: 'The text (type text).' },
    type: { type: 'string', description: 'text, image, local_image, audio, local_audio, skill or mention.' },
  },
  additionalProperties: false,
} as const;
const items = { type: 'array', description: 'The input as items; use this or message.', items: inputItemSchema } as const;

// Specs built once, not per thread (see collaboration-tools.ts).
const WAIT_AGENT = spec(
  'wait_agent',
  'Wait until one of the agents reaches a final status (completed, errored, interrupted, closed), or the timeout passes. Answers the statuses of those that did; an empty status means it timed out. Each end also arrives as a notification.',
  { targets: { type: 'array', description: 'The agent ids to wait on; the first to finish ends the wait.', items: { type: 'string' } }, timeout_ms: { type: 'number', description: `Milliseconds to wait (${WAIT_TIMEOUT_MS.min} to ${WAIT_TIMEOUT_MS.max}; default ${WAIT_TIMEOUT_MS.default}). Prefer long waits to polling.` } },
  ['targets'],
);
const SEND_INPUT = spec(
  'send_input',
  'Send an existing agent more input. A working agent reads it at its next step; with interrupt=true it stops what it does and takes this at once. An idle agent starts working on it. Reuse an agent this way when the new work builds on what it already knows.',
  {
    interrupt: { type: 'boolean', description: 'Stop the current work and take this now (default: queue it).' },
    items,
    message: { type: 'string', description: 'The input as plain text; use this or items.' },
    target: { type: 'string', description: 'The agent id spawn_agent answered.' },
  },
  ['target'],
);
const SPAWN_AGENT = spec(
  'spawn_agent',
  'Start a sub-agent on a well-scoped task and return its id (and a nickname) at once; it works in parallel and its end arrives as a notification (or through wait_agent). It runs your model unless you name another; only do that when the user asks. Spawn only when the user or the project instructions ask for sub-agents or parallel work.',
  {
    fork_context: { type: 'boolean', description: 'Give the agent this conversation so far (default: only the message).' },
    items,
    message: { type: 'string', description: 'The task as plain text: a complete brief, since the agent sees nothing else; use this or items.' },
    model: { type: 'string', description: 'A model for the agent instead of yours.' },
    reasoning_effort: { type: 'string', description: 'A reasoning effort for the agent instead of yours.' },
  },
  [],
);
const RESUME_AGENT = spec('resume_agent', 'Open a closed agent again, so it takes input; answers its status.', { id: { type: 'string', description: 'The agent id.' } }, ['id']);
const CLOSE_AGENT = spec('close_agent', 'Close an agent you no longer need: its work stops and it takes no more input (resume_agent opens it again). Answers the status it had.', { target: { type: 'string', description: 'The agent id.' } }, ['target']);

/** The message of a call that gives `message` or `items`: one text, or a refusal the model reads. */
function messageOf(args: { readonly message?: string | undefined; readonly items?: readonly z.infer<typeof InputItem>[] | undefined }): string {
  if (args.message !== undefined && args.items !== undefined) throw new ToolError('give either message or items, not both');
  if (args.items !== undefined) {
    const other = args.items.find((item) => (item.type ?? 'text') !== 'text');
    if (other !== undefined) throw new ToolError(`input items of type ${JSON.stringify(other.type)} are not supported here; send the text, and name files by path in it`);
    const text = args.items.map((item) => item.text ?? '').join('\n');
    if (text.trim() === '') throw new ToolError('items hold no text');
    return text;
  }
  if (args.message === undefined || args.message.trim() === '') throw new ToolError('message must not be empty');
  return args.message;
}

/** A collaboration item's view of an agent. */
function agentState(status: AgentStatus): CollabAgentState {
  switch (status.kind) {
    case 'completed':
      return { status: 'completed', message: status.answer };
    case 'errored':
      return { status: 'errored', message: status.reason };
    default:
      return { status: status.kind, message: null };
  }
}

export function multiAgentV1Tools(binding: MultiAgentV1Binding): NamespaceToolHandler {
  // The tree keys agents by path; v1 agents get one that only counts up (a failed spawn frees none).
  let spawnCount = 0;
  const callerOf = (): AgentNode => {
    const caller = binding.caller();
    if (caller === undefined) throw new ToolError('this thread is not part of an agent tree');
    return caller;
  };
  const agentOf = (id: string): AgentNode => {
    if (!UUID.test(id.trim())) throw new ToolError(`invalid agent id ${id}: not a UUID`);
    return binding.tree.agentById(id);
  };
  /** Runs `act` between the call's started and completed items (failed when it throws). */
  const shown = async <T>(context: ToolContext, base: Omit<CollabAgentToolCallTurnItem, 'kind' | 'id' | 'status' | 'agentsStates' | 'startedAtMs' | 'completedAtMs'>, act: () => Promise<{ readonly result: T; readonly shown: Partial<CollabAgentToolCallTurnItem> }>): Promise<T> => {
    const startedAtMs = binding.now();
    const item: CollabAgentToolCallTurnItem = { kind: 'collabAgentToolCall', id: context.callId, status: 'inProgress', agentsStates: {}, startedAtMs, completedAtMs: null, ...base };
    binding.emit({ type: 'turnItem', phase: 'started', turnId: context.turnId, item });
    try {
      const { result, shown: after } = await act();
      binding.emit({ type: 'turnItem', phase: 'completed', turnId: context.turnId, item: { ...item, ...after, status: 'completed', completedAtMs: binding.now() } });
      return result;
    } catch (error) {
      binding.emit({ type: 'turnItem', phase: 'completed', turnId: context.turnId, item: { ...item, status: 'failed', completedAtMs: binding.now() } });
      throw error;
    }
  };
  const states = (nodes: readonly AgentNode[]) => Object.fromEntries(nodes.map((node) => [node.threadId, agentState(node.status)]));
  const sender = () => callerOf().threadId;

  const tools: LeafToolHandler[] = [
    defineFunctionTool({
      spec: WAIT_AGENT,
      arguments: WaitArgs,
      handle: async (args, context) => {
        const targets = args.targets.map(agentOf);
        const timeout = Math.min(WAIT_TIMEOUT_MS.max, Math.max(WAIT_TIMEOUT_MS.min, args.timeout_ms ?? WAIT_TIMEOUT_MS.default));
        const done = await shown(context, { tool: 'wait', senderThreadId: sender(), receiverThreadIds: targets.map((target) => target.threadId), prompt: null, model: null, reasoningEffort: null }, async () => {
          const finished = await binding.tree.waitForAny(targets, timeout, context.signal);
          return { result: finished, shown: { agentsStates: states(finished) } };
        });
        const status = Object.fromEntries(done.map((node) => [node.threadId, statusWire(node.status)]));
        return { output: JSON.stringify({ status, timed_out: done.length === 0 }), success: true };
      },
    }),
    defineFunctionTool({
      spec: SEND_INPUT,
      arguments: SendInputArgs,
      handle: async (args, context) => {
        const target = agentOf(args.target);
        const text = messageOf(args);
        const submission = await shown(context, { tool: 'sendInput', senderThreadId: sender(), receiverThreadIds: [target.threadId], prompt: text, model: null, reasoningEffort: null }, async () => {
          // Shown as the agent stood when the input reached it, as Codex shows it.
          const before = states([target]);
          const turnId = await binding.tree.input(target, text, args.interrupt === true);
          return { result: turnId, shown: { agentsStates: before } };
        });
        return { output: JSON.stringify({ submission_id: submission ?? null }), success: true };
      },
    }),
    defineFunctionTool({
      spec: SPAWN_AGENT,
      arguments: SpawnArgs,
      handle: async (args, context) => {
        const caller = callerOf();
        const text = messageOf(args);
        const settings = binding.settings();
        const model = args.model ?? settings.model;
        const reasoningEffort = args.reasoning_effort ?? settings.reasoningEffort ?? null;
        const child = await shown(context, { tool: 'spawnAgent', senderThreadId: caller.threadId, receiverThreadIds: [], prompt: text, model: '', reasoningEffort }, async () => {
          const spawned = await binding.tree.spawn(
            caller,
            { taskName: `agent_${++spawnCount}`, message: text, forkTurns: args.fork_context === true ? 'all' : 'none', model: args.model, reasoningEffort: args.reasoning_effort, dialect: 'v1' },
            { turnId: context.turnId, rootTurnId: caller.parent?.rootTurnId ?? context.turnId, callId: context.callId },
          );
          // Shown as it was when spawned: its first turn is only starting.
          return { result: spawned, shown: { receiverThreadIds: [spawned.threadId], model, agentsStates: { [spawned.threadId]: { status: 'pendingInit', message: null } } } };
        });
        return { output: JSON.stringify({ agent_id: child.threadId, nickname: agentNickname(child.threadId) }), success: true };
      },
    }),
    defineFunctionTool({
      spec: RESUME_AGENT,
      arguments: IdArgs,
      handle: async (args, context) => {
        const target = agentOf(args.id);
        const status = await shown(context, { tool: 'resumeAgent', senderThreadId: sender(), receiverThreadIds: [target.threadId], prompt: null, model: null, reasoningEffort: null }, () => {
          const reopened = binding.tree.reopen(target);
          return Promise.resolve({ result: reopened, shown: { agentsStates: states([target]) } });
        });
        return { output: JSON.stringify({ status: statusWire(status) }), success: true };
      },
    }),
    defineFunctionTool({
      spec: CLOSE_AGENT,
      arguments: TargetArgs,
      handle: async (args, context) => {
        const target = agentOf(args.target);
        const previous = await shown(context, { tool: 'closeAgent', senderThreadId: sender(), receiverThreadIds: [target.threadId], prompt: null, model: null, reasoningEffort: null }, () => {
          const before = agentState(target.status);
          const wire = binding.tree.close(target);
          return Promise.resolve({ result: wire, shown: { agentsStates: { [target.threadId]: before } } });
        });
        return { output: JSON.stringify({ previous_status: previous }), success: true };
      },
    }),
  ];
  return { kind: 'namespace', name: 'multi_agent_v1', description: 'Start sub-agents and manage them.', exposure: 'deferred', tools };
}
