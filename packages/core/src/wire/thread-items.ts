// The items of a turn as app-server clients see them (`ThreadItem`), projected from core's turn
// items and from recorded history: user and agent messages, reasoning, commands and file changes.
import type { AsyncQuestion, McpToolCallTurnItem, TurnItem } from '../turn/turn-item.js';
import type { ResponseItem, UserInput } from '@skein/protocol';

/** A JSON object sent to clients. */
export type WireObject = Record<string, unknown>;

/** The user's input as a `userMessage` item. */
export function userMessageItem(id: string, clientId: string | null, content: readonly UserInput[], startedAtMs: number, completedAtMs: number | null): WireObject {
  return { type: 'userMessage', id, clientId, content, startedAtMs, completedAtMs };
}

/** What an `agentMessage` item shows besides its text. */
interface AgentMessageSource {
  readonly id?: string | null | undefined;
  readonly phase?: unknown;
  /** `async` for a message a tool showed while the turn went on. */
  readonly delivery?: 'async' | undefined;
  readonly questions?: readonly AsyncQuestion[] | undefined;
}

/** An assistant message (`agentMessage`), with the text so far. */
export function agentMessageItem(item: AgentMessageSource, text: string, startedAtMs: number, completedAtMs: number | null): WireObject {
  const phase = item.phase;
  return {
    type: 'agentMessage',
    moderation: null,
    id: item.id ?? '',
    text,
    phase: typeof phase === 'string' ? phase : null,
    memoryCitation: null,
    delivery: item.delivery ?? null,
    questions: item.questions ?? null,
    startedAtMs,
    completedAtMs,
  };
}

/** A reasoning item with its summary parts. */
export function reasoningItem(item: ResponseItem, startedAtMs: number, completedAtMs: number | null): WireObject {
  const summary = (item as { summary?: readonly { text?: unknown }[] }).summary ?? [];
  const content = (item as { content?: readonly { text?: unknown }[] | null }).content ?? [];
  const texts = (parts: readonly { text?: unknown }[]) => parts.flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
  return { type: 'reasoning', id: item.id ?? '', summary: texts(summary), content: texts(content), startedAtMs, completedAtMs };
}

/** What a command item shows. */
export interface CommandItemState {
  readonly id: string;
  readonly command: string;
  /** The shell script inside the command, for `commandActions`. */
  readonly cmd: string;
  readonly cwd: string;
  readonly source: 'agent' | 'userShell' | 'unifiedExecStartup';
  readonly status: 'inProgress' | 'completed' | 'failed' | 'declined';
  readonly processId: string | null;
  readonly aggregatedOutput: string | null;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  readonly startedAtMs: number;
  readonly completedAtMs: number | null;
}

/** A `commandExecution` item. */
export function commandExecutionItem(state: CommandItemState): WireObject {
  return {
    type: 'commandExecution',
    id: state.id,
    pluginId: null,
    scriptPath: null,
    command: state.command,
    cwd: state.cwd,
    processId: state.processId,
    source: state.source,
    status: state.status,
    commandActions: [{ type: 'unknown', command: state.cmd }],
    aggregatedOutput: state.aggregatedOutput,
    exitCode: state.exitCode,
    durationMs: state.durationMs,
    startedAtMs: state.startedAtMs,
    completedAtMs: state.completedAtMs,
  };
}

/** One file of a patch, as core reports it. */
export interface PatchChange {
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  readonly movePath?: string | undefined;
  readonly diff?: string | undefined;
}

/** A `fileChange` item. */
export function fileChangeItem(
  id: string,
  changes: readonly PatchChange[],
  status: 'inProgress' | 'completed' | 'failed' | 'declined',
  startedAtMs: number,
  completedAtMs: number | null,
): WireObject {
  return {
    type: 'fileChange',
    id,
    changes: changes.map((change) => ({
      path: change.path,
      kind: change.kind === 'update' ? { type: 'update', move_path: change.movePath ?? null } : { type: change.kind },
      diff: change.diff ?? '',
    })),
    status,
    startedAtMs,
    completedAtMs,
  };
}

/** What a hook told the model to go on with. */
export function hookPromptItem(id: string, fragments: readonly { readonly hookRunId: string; readonly text: string }[], startedAtMs: number, completedAtMs: number | null): WireObject {
  return { type: 'hookPrompt', id, fragments: fragments.map(({ text, hookRunId }) => ({ text, hookRunId })), startedAtMs, completedAtMs };
}

/** An image the model looked at. */
export function imageViewItem(id: string, path: string): WireObject {
  return { type: 'imageView', id, path };
}

/** The v2 item of one of core's turn items. */
export function threadItem(item: TurnItem): WireObject {
  switch (item.kind) {
    case 'hookPrompt':
      return hookPromptItem(item.id, item.fragments, item.startedAtMs, item.completedAtMs);
    case 'agentMessage':
      return agentMessageItem(item, item.text, item.startedAtMs, item.completedAtMs);
    case 'reasoning':
      return { type: 'reasoning', id: item.id, summary: item.summary, content: item.content, startedAtMs: item.startedAtMs, completedAtMs: item.completedAtMs };
    case 'commandExecution':
      return commandExecutionItem({
        id: item.id,
        command: item.command,
        cmd: item.cmd,
        cwd: item.cwd,
        // A command shown while it waits on (or after it lost) an approval is the agent's; one that ran names how it ran.
        source: !item.executed ? 'agent' : item.source === 'userShell' ? 'userShell' : 'unifiedExecStartup',
        status: item.status,
        // The live item leaves the process id out; thread/read shows the recorded one.
        processId: null,
        aggregatedOutput: item.aggregatedOutput,
        exitCode: item.exitCode,
        durationMs: item.durationMs,
        startedAtMs: item.startedAtMs,
        completedAtMs: item.completedAtMs,
      });
    case 'fileChange':
      return fileChangeItem(item.id, item.changes, item.status, item.startedAtMs, item.completedAtMs);
    case 'imageView':
      return imageViewItem(item.id, item.path);
    case 'contextCompaction':
      return { type: 'contextCompaction', id: item.id, startedAtMs: item.startedAtMs, completedAtMs: item.completedAtMs };
    case 'webSearch':
      return webSearchItem(item.id, item.query, item.action, item.startedAtMs, item.completedAtMs);
    case 'mcpToolCall':
      return mcpToolCallItem(item);
    case 'subAgentActivity':
      return { type: 'subAgentActivity', id: item.id, kind: item.activity, agentThreadId: item.agentThreadId, agentPath: item.agentPath, model: item.model, reasoningEffort: item.reasoningEffort };
    case 'collabAgentToolCall':
      return {
        type: 'collabAgentToolCall',
        id: item.id,
        tool: item.tool,
        status: item.status === 'declined' ? 'failed' : item.status,
        senderThreadId: item.senderThreadId,
        receiverThreadIds: item.receiverThreadIds,
        prompt: item.prompt ?? null,
        model: item.model ?? null,
        reasoningEffort: item.reasoningEffort ?? null,
        agentsStates: item.agentsStates,
      };
  }
}

/** An MCP tool call as Codex's v2 `mcpToolCall` item (its fields in Codex's order, probed). */
export function mcpToolCallItem(item: McpToolCallTurnItem): WireObject {
  return {
    type: 'mcpToolCall',
    id: item.id,
    server: item.server,
    environmentId: null,
    tool: item.tool,
    status: item.status === 'declined' ? 'failed' : item.status,
    arguments: item.arguments ?? null,
    appContext: null,
    mcpAppUi: null,
    pluginId: null,
    readOnlyHint: item.readOnlyHint,
    result: item.result === null ? null : { content: item.result.content, structuredContent: item.result.structuredContent ?? null, _meta: item.result._meta ?? null },
    error: item.error,
    durationMs: item.durationMs,
    startedAtMs: item.startedAtMs,
    completedAtMs: item.completedAtMs,
  };
}

/** A search the API ran for the model; Codex sends no results (`results: null`). */
export function webSearchItem(id: string, query: string, action: Readonly<Record<string, unknown>>, startedAtMs: number | null, completedAtMs: number | null): WireObject {
  return { type: 'webSearch', id, query, action, results: null, startedAtMs, completedAtMs };
}
