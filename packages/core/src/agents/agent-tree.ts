// One session's agents: the root thread at `/root` and the sub-agents it (and they) spawn at
// `/root/<task_name>`, each a real thread of the same registry. The tree runs what the collaboration
// tools ask — spawn, message, follow up, wait, list, interrupt — and carries each sub-agent's end
// back to its parent: a FINAL_ANSWER envelope, or a notification when it failed or was stopped.
// Multi-agent v1 (the `multi_agent_v1` tools of models not trained on v2) shares the tree: its
// agents are named by thread id, take their tasks as user messages, and tell their parent every
// end as a notification. A request the tree cannot honour is a ToolError the calling model reads.
import { ToolError } from '@skein/extension-api';
import { newTurnId, randomUuidV7, type ResponseItem, type UuidV7Source } from '@skein/protocol';
import type { CoreEvent } from '../turn/core-event.js';
import type { SubAgentActivityTurnItem } from '../turn/turn-item.js';
import { envelopeItem, type Envelope } from './agent-envelope.js';
import { AgentInbox } from './agent-inbox.js';
import { ROOT_AGENT_PATH, type AgentLimits, type AgentListing, type AgentNode, type AgentParent, type ChildThreadRequest, type OpenChildThread, type SpawnRequest } from './agent-node.js';
import type { ThreadHandle } from '../thread-handle.js';
import { boundedReason, describe, endingOf, notification, userMessage, v1Notification } from './agent-notices.js';
import { isActive, statusWire, type AgentStatus, type AgentStatusWire } from './agent-status.js';

/** How long send_input with interrupt waits for the agent's turn to end before it goes on. */
const INTERRUPT_WAIT_MS = 10_000;

export { ROOT_AGENT_PATH } from './agent-node.js';
export type { AgentLimits, AgentListing, AgentNode, AgentParent, ChildThreadRequest, OpenChildThread, SpawnRequest } from './agent-node.js';

/** `task_name`: lower-case letters, digits and underscores, as Codex accepts them. */
const TASK_NAME = /^[a-z0-9_]+$/;

export class AgentTree {
  readonly #nodes = new Map<string, AgentNode>();
  readonly #limits: AgentLimits;
  readonly #openChild: OpenChildThread;
  readonly #uuid: UuidV7Source;
  readonly #now: () => number;
  /** Called whenever an agent's turn ends (v1's wait_agent listens). */
  readonly #endListeners = new Set<() => void>();

  constructor(options: { readonly limits: AgentLimits; readonly openChild: OpenChildThread; readonly now: () => number; readonly uuid?: UuidV7Source }) {
    this.#limits = options.limits;
    this.#openChild = options.openChild;
    this.#now = options.now;
    this.#uuid = options.uuid ?? randomUuidV7;
  }

  /** The root agent, added once its thread is known. */
  addRoot(threadId: string): AgentNode {
    const existing = this.#nodes.get(ROOT_AGENT_PATH);
    if (existing !== undefined) return existing;
    const root: AgentNode = { path: ROOT_AGENT_PATH, threadId, depth: 0, inbox: new AgentInbox(), parent: undefined, status: { kind: 'running' }, handle: undefined };
    this.#nodes.set(ROOT_AGENT_PATH, root);
    return root;
  }

  /** Puts back a sub-agent recorded in the session's files (its thread opens after; see `attach`). */
  adopt(child: ChildThreadRequest, threadId: string, status: AgentStatus): void {
    if (this.#nodes.has(child.path)) return;
    this.#nodes.set(child.path, { path: child.path, threadId, depth: child.depth, inbox: child.inbox, parent: child.parent, status, handle: undefined });
  }

  /** Binds a put-back sub-agent's opened thread. */
  attach(threadId: string, handle: ThreadHandle): void {
    const node = this.nodeOfThread(threadId);
    if (node !== undefined) node.handle = handle;
  }

  /** The agent whose thread is `threadId`, if it is in this tree. */
  nodeOfThread(threadId: string): AgentNode | undefined {
    return [...this.#nodes.values()].find((node) => node.threadId === threadId);
  }

  /** Every agent, the root first, then in spawn order. */
  get nodes(): readonly AgentNode[] {
    return [...this.#nodes.values()];
  }

  /**
   * Spawns `request.taskName` under `caller`: its thread opens, its first turn starts with the task
   * as a NEW_TASK envelope, and the call returns the new agent's path without waiting for it.
   */
  async spawn(
    caller: AgentNode,
    request: SpawnRequest,
    turn: { readonly turnId: string; readonly rootTurnId: string; readonly callId?: string; readonly tellParent?: (event: CoreEvent) => void },
  ): Promise<AgentNode> {
    if (!TASK_NAME.test(request.taskName)) throw new ToolError(`task_name must be lower-case letters, digits and underscores (got ${JSON.stringify(request.taskName)})`);
    if (request.message.trim() === '') throw new ToolError('message must not be empty: it is the task the agent works on');
    const path = `${caller.path}/${request.taskName}`;
    if (this.#nodes.has(path)) throw new ToolError(`an agent named ${path} already exists; give the new one another task_name, or use followup_task to give ${path} more work`);
    const depth = caller.depth + 1;
    if (depth > this.#limits.maxDepth) throw new ToolError(`cannot spawn ${path}: agents may be nested ${this.#limits.maxDepth} level(s) deep ([agents] max_depth)`);
    const active = this.nodes.filter((node) => node.depth > 0 && isActive(node.status)).length;
    if (active >= this.#limits.maxConcurrent) {
      throw new ToolError(`cannot spawn ${path}: ${active} agents are already working, the most this session runs at once; wait for one to finish (wait_agent) or interrupt one`);
    }
    const parent: AgentParent = { path: caller.path, threadId: caller.threadId, turnId: turn.turnId, rootTurnId: turn.rootTurnId };
    const inbox = new AgentInbox();
    // Reserved before the thread opens, so a second spawn of the same name in the same response is refused.
    const node: AgentNode = { path, threadId: '', depth, inbox, parent, status: { kind: 'pendingInit' }, handle: undefined, tellParent: turn.tellParent };
    this.#nodes.set(path, node);
    let handle: ThreadHandle;
    try {
      handle = await this.#openChild({ path, taskName: request.taskName, depth, parent, inbox, request });
    } catch (error) {
      this.#nodes.delete(path);
      throw new ToolError(`cannot spawn ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const opened: AgentNode = { ...node, threadId: handle.threadId, handle, ...(request.dialect === undefined ? {} : { dialect: request.dialect }) };
    this.#nodes.set(path, opened);
    const task = request.dialect === 'v1' ? userMessage(request.message) : this.#item({ type: 'NEW_TASK', author: caller.path, recipient: path, payload: request.message, sourceCallId: turn.callId });
    this.#startTurn(opened, task);
    return opened;
  }

  /** A v1 agent by its thread id, as the multi_agent_v1 tools name it. */
  agentById(id: string): AgentNode {
    const node = this.nodeOfThread(id.trim());
    if (node === undefined || node.depth === 0) throw new ToolError(`agent with id ${id} not found`);
    return node;
  }

  /**
   * Multi-agent v1's send_input: a new task for an idle agent (its turn starts at once), or a message
   * a working one reads at its next step; `interrupt` stops the working one first. Answers the turn
   * the input went to.
   */
  async input(target: AgentNode, message: string, interrupt: boolean): Promise<string | undefined> {
    if (target.status.kind === 'shutdown') throw new ToolError(`agent ${target.threadId} is closed; resume_agent opens it again`);
    if (interrupt && target.handle?.activeTurnId !== undefined) await this.#interruptAndWait(target);
    if (isActive(target.status) && target.handle?.activeTurnId !== undefined) {
      target.inbox.deliver(userMessage(message));
      return target.handle.activeTurnId;
    }
    return this.#startTurn(target, userMessage(message));
  }

  /**
   * Multi-agent v1's wait_agent: until one of `targets` is done (anything but pending or running),
   * `timeoutMs` passes, or the turn is interrupted. Answers the targets that are done.
   */
  async waitForAny(targets: readonly AgentNode[], timeoutMs: number, signal: AbortSignal): Promise<readonly AgentNode[]> {
    const done = () => targets.filter((target) => !isActive(target.status));
    if (done().length > 0) return done();
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const finish = (result: readonly AgentNode[] | Error) => {
        clearTimeout(timer);
        this.#endListeners.delete(check);
        signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const check = () => {
        if (done().length > 0) finish(done());
      };
      const onAbort = () => finish(signal.reason instanceof Error ? signal.reason : new Error('the turn was interrupted'));
      const timer = setTimeout(() => finish([]), timeoutMs);
      this.#endListeners.add(check);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Interrupts `target`'s turn and resolves once the tree has recorded its end, or after a bounded wait. */
  #interruptAndWait(target: AgentNode): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#endListeners.delete(ended);
        resolve();
      };
      const ended = () => {
        if (!isActive(target.status)) finish();
      };
      // An interrupted turn ends within moments; a stuck one must not hold the caller's turn.
      const timer = setTimeout(finish, INTERRUPT_WAIT_MS);
      this.#endListeners.add(ended);
      target.handle?.interruptIfRunning();
      ended();
    });
  }

  /** Multi-agent v1's close_agent: stops the agent's work and closes it to input; answers the status it had. */
  close(target: AgentNode): AgentStatusWire {
    const previous = statusWire(target.status);
    target.status = { kind: 'shutdown' };
    target.handle?.interruptIfRunning();
    // A closed agent is done: whoever waits on it stops waiting.
    for (const listener of this.#endListeners) listener();
    return previous;
  }

  /** Multi-agent v1's resume_agent: a closed agent takes input again. */
  reopen(target: AgentNode): AgentStatus {
    if (target.status.kind === 'shutdown') target.status = { kind: 'pendingInit' };
    return target.status;
  }

  /**
   * Sends `message` to `target`: `followup` gives it a new task (starting a turn when it is idle),
   * otherwise the message waits for the agent's next request. A finished agent takes follow-ups only.
   */
  send(caller: AgentNode, targetName: string, message: string, followup: boolean, sourceCallId?: string): void {
    if (message.trim() === '') throw new ToolError('message must not be empty');
    const target = this.#resolve(caller, targetName);
    if (target.path === caller.path) throw new ToolError('an agent cannot send a message to itself');
    if (target.status.kind === 'shutdown') throw new ToolError(`${target.path} has been shut down and takes no more messages`);
    // A NEW_TASK starts the agent's turn; anything a working agent reads at its next step is a MESSAGE.
    if (followup && target.depth > 0 && !isActive(target.status)) {
      this.#startTurn(target, this.#item({ type: 'NEW_TASK', author: caller.path, recipient: target.path, payload: message, sourceCallId }));
      return;
    }
    const envelope: Envelope = { type: 'MESSAGE', author: caller.path, recipient: target.path, payload: message, sourceCallId };
    if (!followup && target.depth > 0 && !isActive(target.status)) {
      throw new ToolError(`${target.path} is not working (${describe(target.status)}); give it new work with followup_task`);
    }
    target.inbox.deliver(this.#item(envelope));
  }

  /**
   * Waits until something is delivered to `caller` (a sub-agent's answer or notification, a
   * message), `timeoutMs` passes, or the turn is interrupted. Answers at once when nothing is owed.
   */
  async wait(caller: AgentNode, timeoutMs: number, signal: AbortSignal): Promise<{ readonly timedOut: boolean }> {
    if (caller.inbox.pending > 0) return { timedOut: false };
    const owed = this.nodes.some((node) => node.parent?.path === caller.path && isActive(node.status));
    if (!owed) return { timedOut: false };
    return new Promise((resolve, reject) => {
      const finish = (result: { readonly timedOut: boolean } | Error) => {
        clearTimeout(timer);
        stop();
        signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onAbort = () => finish(signal.reason instanceof Error ? signal.reason : new Error('the turn was interrupted'));
      const timer = setTimeout(() => finish({ timedOut: true }), timeoutMs);
      const stop = caller.inbox.onDelivery(() => finish({ timedOut: false }));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The agents under `pathPrefix` (every one without it), with their status. */
  list(pathPrefix: string | undefined): AgentListing[] {
    const prefix = pathPrefix?.replace(/\/+$/, '');
    return this.nodes
      .filter((node) => prefix === undefined || prefix === '' || node.path === prefix || node.path.startsWith(`${prefix}/`))
      .map((node) => ({ agent_name: node.path, agent_status: statusWire(node.status) }));
  }

  /** Interrupts `target`'s running turn; answers the status it had. */
  interrupt(caller: AgentNode, targetName: string): AgentStatusWire {
    const target = this.#resolve(caller, targetName);
    if (target.depth === 0) throw new ToolError('the root agent cannot be interrupted by a tool call');
    const previous = statusWire(target.status);
    if (target.handle?.activeTurnId !== undefined) target.handle.interrupt();
    return previous;
  }

  /** Interrupts the running turns of every agent below the one on thread `threadId` (an interrupt travels down the tree). */
  interruptChildren(threadId: string): void {
    const node = this.nodeOfThread(threadId);
    if (node === undefined) return;
    for (const below of this.nodes) {
      if (below.path.startsWith(`${node.path}/`) && below.handle?.activeTurnId !== undefined) below.handle.interruptIfRunning();
    }
  }

  /** Runs one turn of `node` with `input` as its input, then tells its parent how it ended; answers the turn's id. */
  #startTurn(node: AgentNode, input: ResponseItem): string | undefined {
    const handle = node.handle;
    if (handle === undefined) return undefined;
    node.status = { kind: 'running' };
    const turnId = newTurnId(this.#uuid);
    const limit = this.#limits.maxRuntimeMs;
    let overran = false;
    const timer =
      limit === undefined
        ? undefined
        : setTimeout(() => {
            overran = true;
            handle.interruptIfRunning();
          }, limit);
    void handle.runTurn([], { turnId, inputItems: [input] }).then(
      (outcome) => {
        clearTimeout(timer);
        // A turn stopped for running too long failed its task: errored, not merely interrupted.
        this.#ended(node, overran && outcome.status !== 'completed' ? { kind: 'errored', reason: `the task ran longer than ${(limit ?? 0) / 1000} s ([agents] job_max_runtime_seconds) and was stopped` } : endingOf(outcome));
        this.#reportEnd(node, turnId);
      },
      // The thread refused the turn (it was closed meanwhile): the agent is done for.
      (error: unknown) => {
        clearTimeout(timer);
        this.#ended(node, { kind: 'errored', reason: error instanceof Error ? error.message : String(error) });
      },
    );
    return turnId;
  }

  /** Records how `node`'s turn ended and tells its parent: its answer, or why it did not finish. */
  #ended(node: AgentNode, status: AgentStatus): void {
    // A closed agent stays closed, and its parent, who closed it, is told nothing more.
    if (node.status.kind === 'shutdown') {
      for (const listener of this.#endListeners) listener();
      return;
    }
    node.status = status.kind === 'errored' ? { kind: 'errored', reason: boundedReason(status.reason) } : status;
    for (const listener of this.#endListeners) listener();
    const parent = node.parent === undefined ? undefined : this.#nodes.get(node.parent.path);
    if (parent === undefined) return;
    if (node.dialect === 'v1') parent.inbox.deliver(v1Notification(node));
    else if (status.kind === 'completed') parent.inbox.deliver(this.#item({ type: 'FINAL_ANSWER', author: node.path, recipient: parent.path, payload: status.answer ?? '' }));
    else parent.inbox.deliver(notification(node));
  }

  /** The parent's clients see the sub-agent's turn end as a `subAgentActivity` item (Codex's id scheme). */
  #reportEnd(node: AgentNode, childTurnId: string): void {
    const tell = node.tellParent;
    if (tell === undefined || node.parent === undefined) return;
    const now = this.#now();
    const activity = node.status.kind === 'interrupted' ? 'interrupted' : 'completed';
    const item: SubAgentActivityTurnItem = { kind: 'subAgentActivity', id: `subagent-completed-${childTurnId}`, activity, agentThreadId: node.threadId, agentPath: node.path, model: null, reasoningEffort: null, startedAtMs: now, completedAtMs: now };
    const turnId = node.parent.turnId ?? '';
    tell({ type: 'turnItem', phase: 'started', turnId, item: { ...item, completedAtMs: null } });
    tell({ type: 'turnItem', phase: 'completed', turnId, item });
  }

  #item(envelope: Envelope): ResponseItem {
    return envelopeItem(envelope, `amsg_${this.#uuid()}`);
  }

  /** `target` as the caller names it: a canonical path, else a child's or a sibling's short name. */
  #resolve(caller: AgentNode, target: string): AgentNode {
    const name = target.trim();
    const candidates = name.startsWith('/') ? [name.replace(/\/+$/, '')] : [`${caller.path}/${name}`, ...(caller.parent === undefined ? [] : [`${caller.parent.path}/${name}`])];
    for (const path of candidates) {
      const node = this.#nodes.get(path);
      if (node !== undefined && node.threadId !== '') return node;
    }
    throw new ToolError(`no agent named ${JSON.stringify(target)}; list_agents shows the agents of this session`);
  }
}
