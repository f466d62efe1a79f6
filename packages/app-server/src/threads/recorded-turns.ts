// A recorded thread's turns as clients read them (`thread/read {includeTurns}`, fork and resume):
// each surviving turn with the user's messages, the commands that ran and the agent's answers, in
// the order the rollout holds them, with the turn's start and end times.
import { displayCommand, webSearchOf } from '@skein/core';
import { isKnownResponseItem, parseHookPrompt, type ContextFragmentDefinition, type ResponseItem } from '@skein/protocol';
import { isUserTurnBoundary, userMessageText, type LoadedThread, type RolloutLine, type ThreadStore } from '@skein/rollout';
import { agentMessageItem, commandExecutionItem, fileChangeItem, hookPromptItem, mcpToolCallItem, reasoningItem, webSearchItem, type WireObject } from '@skein/core';
import * as z from 'zod';

/** Where a thread's lines are read again from: its store. */
type ThreadLines = Pick<ThreadStore, 'forEachLine'>;

/** `lines`, with `alsoVisit` shown each line a reader visits: one read of the file serves both. */
export function teeLines(lines: ThreadLines, alsoVisit?: (line: RolloutLine, lineNumber: number) => void): ThreadLines {
  if (alsoVisit === undefined) return lines;
  return {
    forEachLine: (threadId, visit) =>
      lines.forEachLine(threadId, (line, lineNumber) => {
        visit(line, lineNumber);
        alsoVisit(line, lineNumber);
      }),
  };
}

interface TurnTrace {
  readonly items: WireObject[];
  /** Where each item's line is in the file (its first line, for a message a host line amends). */
  readonly itemPositions: number[];
  startedAtMs: number | null;
  completedAtMs: number | null;
  startedPosition: number | null;
  completedPosition: number | null;
  /** The error its `task_complete` recorded: the turn failed. */
  error: WireObject | null;
}

const turnIdOf = (item: ResponseItem): string | undefined => {
  const metadata = (item as { metadata?: { turn_id?: unknown } }).metadata;
  return typeof metadata?.turn_id === 'string' ? metadata.turn_id : undefined;
};

/** One recorded turn, and where its start, items and end are in the rollout (line numbers). */
export interface RecordedTurn {
  readonly turn: WireObject;
  readonly startedPosition: number | null;
  readonly itemPositions: readonly number[];
  readonly completedPosition: number | null;
}

/**
 * The turns of a loaded rollout, oldest first. A turn the file never saw end is `inProgress` only
 * while it is `runningTurnId`; any other was cut short (its process was killed) and is
 * `interrupted`, as Codex reports it.
 */
export async function recordedTurns(lines: ThreadLines, loaded: LoadedThread, contextFragments?: readonly ContextFragmentDefinition[], runningTurnId?: string): Promise<WireObject[]> {
  return (await recordedTurnsWithPositions(lines, loaded, contextFragments, runningTurnId)).map((recorded) => recorded.turn);
}

/** {@link recordedTurns} with each turn's positions in the file, for a timeline. */
export async function recordedTurnsWithPositions(lines: ThreadLines, loaded: LoadedThread, contextFragments?: readonly ContextFragmentDefinition[], runningTurnId?: string): Promise<RecordedTurn[]> {
  const surviving = new Set(loaded.turns.flatMap((turn) => (turn.turnId === undefined ? [] : [turn.turnId])));
  const traces = new Map<string, TurnTrace>();
  const emptyTrace = (): TurnTrace => ({ items: [], itemPositions: [], startedAtMs: null, completedAtMs: null, startedPosition: null, completedPosition: null, error: null });
  const trace = (turnId: string): TurnTrace => {
    let found = traces.get(turnId);
    if (found === undefined) {
      found = emptyTrace();
      traces.set(turnId, found);
    }
    return found;
  };
  await lines.forEachLine(loaded.meta.id, (line, lineNumber) => {
    const turnId = lineTurnId(line);
    if (turnId === undefined || !surviving.has(turnId)) return;
    const turn = trace(turnId);
    const item = threadItemOf(line, contextFragments);
    if (item?.['type'] === 'recordedUserMessage') adoptRecordedUserMessage(turn.items, item);
    else if (item !== undefined) {
      turn.items.push(item);
      turn.itemPositions.push(lineNumber);
    }
    const event = line.type === 'event_msg' ? (line.payload as { type?: unknown }).type : undefined;
    if (event === 'task_started') {
      turn.startedAtMs = Date.parse(line.timestamp);
      turn.startedPosition = lineNumber;
    }
    if (event === 'task_complete' || event === 'turn_aborted') {
      turn.completedAtMs = Date.parse(line.timestamp);
      turn.completedPosition = lineNumber;
    }
    if (event === 'task_complete') turn.error = recordedTurnError((line.payload as { error?: unknown }).error);
  });
  return loaded.turns.flatMap((turn): RecordedTurn[] => {
    if (turn.turnId === undefined) return [];
    const { items, itemPositions, startedAtMs, completedAtMs, startedPosition, completedPosition, error } = traces.get(turn.turnId) ?? emptyTrace();
    const wire: WireObject = {
      id: turn.turnId,
      rootTurnId: turn.turnId,
      items,
      itemsView: 'full',
      status: turn.status === 'completed' ? (error === null ? 'completed' : 'failed') : turn.status === 'incomplete' && turn.turnId === runningTurnId ? 'inProgress' : 'interrupted',
      error: turn.status === 'completed' ? error : null,
      startedAt: startedAtMs === null ? null : Math.floor(startedAtMs / 1000),
      completedAt: completedAtMs === null ? null : Math.floor(completedAtMs / 1000),
      durationMs: startedAtMs === null || completedAtMs === null ? null : completedAtMs - startedAtMs,
    };
    return [{ turn: wire, startedPosition, itemPositions, completedPosition }];
  });
}

/**
 * A `task_complete`'s error as the turn's v2 error, as the live `turn/completed` carried it: the
 * rollout writes Codex's error kind in snake_case (`internal_server_error`, or an object such as
 * `{http_connection_failed: {http_status_code: 500}}`), the wire in camelCase. Null for no error.
 */
function recordedTurnError(recorded: unknown): WireObject | null {
  if (typeof recorded !== 'object' || recorded === null) return null;
  const { message, codex_error_info: info } = recorded as { message?: unknown; codex_error_info?: unknown };
  if (typeof message !== 'string') return null;
  return { message, codexErrorInfo: info === undefined ? null : camelCased(info), additionalDetails: null };
}

const camel = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** A snake_case rollout value (strings and object keys) in the wire's camelCase. */
function camelCased(value: unknown): unknown {
  if (typeof value === 'string') return camel(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camel(key), typeof inner === 'object' ? camelCased(inner) : inner]));
}

function lineTurnId(line: RolloutLine): string | undefined {
  if (line.type === 'response_item') return turnIdOf(line.payload as ResponseItem);
  if (line.type !== 'event_msg') return undefined;
  const turnId = (line.payload as { turn_id?: unknown }).turn_id;
  return typeof turnId === 'string' ? turnId : undefined;
}

function threadItemOf(line: RolloutLine, contextFragments: readonly ContextFragmentDefinition[] | undefined): WireObject | undefined {
  if (line.type === 'response_item') {
    // A response item is recorded once it is complete: its line's time stands for its start and end.
    const at = Date.parse(line.timestamp);
    const item = line.payload as ResponseItem;
    if (item.type === 'reasoning') return reasoningItem(item, at, at);
    if (isKnownResponseItem(item) && item.type === 'web_search_call') {
      const { query, action } = webSearchOf(item);
      return webSearchItem(item.id ?? '', query, action, at, at);
    }
    if (item.type !== 'message') return undefined;
    if (isUserTurnBoundary(item, contextFragments)) {
      return { type: 'userMessage', id: item.id ?? '', clientId: null, content: [{ type: 'text', text: userMessageText(item) ?? '', text_elements: [] }], startedAtMs: at, completedAtMs: at };
    }
    const hookPrompt = (item as { role?: unknown }).role === 'user' ? parseHookPrompt(userMessageText(item) ?? '') : undefined;
    if (hookPrompt !== undefined) return hookPromptItem(item.id ?? '', [{ hookRunId: hookPrompt.runId, text: hookPrompt.text }], at, at);
    if ((item as { role?: unknown }).role !== 'assistant') return undefined;
    return agentMessageItem(item, userMessageText(item) ?? '', at, at);
  }
  if (line.type !== 'event_msg') return undefined;
  const payload = line.payload as { type?: unknown; item?: RecordedCommand | RecordedFileChange | RecordedUserMessage };
  if (payload.type !== 'item_completed') return undefined;
  if (payload.item?.type === 'UserMessage') return recordedUserMessage(payload.item);
  if (payload.item?.type === 'CommandExecution') return recordedCommand(payload.item, Date.parse(line.timestamp));
  if (payload.item?.type === 'FileChange') return recordedFileChange(payload.item, Date.parse(line.timestamp));
  // The schema's recorded compaction carries its id only.
  const recorded = payload.item as { type?: unknown; id?: unknown } | undefined;
  if (recorded?.type === 'ContextCompaction') return { type: 'contextCompaction', id: typeof recorded.id === 'string' ? recorded.id : '' };
  if (recorded?.type === 'McpToolCall') return recordedMcpToolCall(recorded as RecordedMcpToolCall, Date.parse(line.timestamp));
  // Other agent messages are read from their response items; a tool's message has none.
  if (recorded?.type === 'AgentMessage') return recordedAsyncMessage(recorded, Date.parse(line.timestamp));
  return undefined;
}

const RecordedAsyncMessage = z.object({
  id: z.string(),
  content: z.array(z.object({ text: z.string() }).loose()),
  phase: z.string().nullish(),
  delivery: z.literal('async'),
  questions: z.array(z.object({ title: z.string(), options: z.array(z.string()).nullish() })).nullish(),
});

/** A message a tool showed (`delivery: "async"`), as an `agentMessage` item; undefined for any other. */
function recordedAsyncMessage(recorded: unknown, at: number): WireObject | undefined {
  const parsed = RecordedAsyncMessage.safeParse(recorded);
  if (!parsed.success) return undefined;
  const { id, content, phase, delivery, questions } = parsed.data;
  const asked = questions?.map((question) => ({ title: question.title, options: question.options ?? null }));
  return agentMessageItem({ id, phase, delivery, questions: asked }, content.map((part) => part.text).join(''), at, at);
}

/** A rollout line's Rust `Duration` (`{secs, nanos}`) in milliseconds; null when it has none. */
function recordedDurationMs(recorded: unknown): number | null {
  const duration = recorded as { secs?: unknown; nanos?: unknown } | undefined;
  return typeof duration?.secs === 'number' && typeof duration.nanos === 'number' ? Math.round(duration.secs * 1000 + duration.nanos / 1e6) : null;
}

interface RecordedMcpToolCall {
  readonly type: 'McpToolCall';
  readonly id?: unknown;
  readonly server?: unknown;
  readonly tool?: unknown;
  readonly arguments?: unknown;
  readonly readOnlyHint?: unknown;
  readonly status?: unknown;
  readonly result?: { readonly content?: unknown; readonly structuredContent?: unknown };
  readonly error?: { readonly message?: unknown };
  readonly duration?: unknown;
}

/** A recorded MCP call as an `mcpToolCall` item. */
function recordedMcpToolCall(item: RecordedMcpToolCall, completedAtMs: number): WireObject {
  const durationMs = recordedDurationMs(item.duration);
  return mcpToolCallItem({
    kind: 'mcpToolCall',
    id: typeof item.id === 'string' ? item.id : '',
    server: typeof item.server === 'string' ? item.server : '',
    tool: typeof item.tool === 'string' ? item.tool : '',
    arguments: item.arguments ?? null,
    status: item.status === 'completed' ? 'completed' : 'failed',
    result: item.result === undefined || !Array.isArray(item.result.content) ? null : { content: item.result.content as unknown[], structuredContent: item.result.structuredContent ?? null },
    error: typeof item.error?.message === 'string' ? { message: item.error.message } : null,
    durationMs,
    readOnlyHint: typeof item.readOnlyHint === 'boolean' ? item.readOnlyHint : null,
    startedAtMs: completedAtMs - (durationMs ?? 0),
    completedAtMs,
  });
}

interface RecordedUserMessage {
  readonly type: 'UserMessage';
  readonly id?: unknown;
  readonly client_id?: unknown;
}

/** A marker carrying the id and client id a host recorded for the message before it. */
function recordedUserMessage(item: RecordedUserMessage): WireObject {
  return { type: 'recordedUserMessage', id: typeof item.id === 'string' ? item.id : '', clientId: typeof item.client_id === 'string' ? item.client_id : null };
}

/**
 * The host's item line follows the message's response item (Codex's order): the message keeps its
 * text, and takes the id and client id the client saw while the turn ran.
 */
function adoptRecordedUserMessage(items: WireObject[], recorded: WireObject): void {
  const message = items.findLast((item) => item['type'] === 'userMessage');
  if (message === undefined) return;
  message['id'] = recorded['id'];
  message['clientId'] = recorded['clientId'];
}

interface RecordedFileChange {
  readonly type: 'FileChange';
  readonly id?: unknown;
  readonly changes?: unknown;
  readonly status?: unknown;
}

/** A recorded patch as a `fileChange` item: Codex keys its changes by path. */
function recordedFileChange(item: RecordedFileChange, completedAtMs: number): WireObject {
  const changes = typeof item.changes === 'object' && item.changes !== null ? Object.entries(item.changes as Record<string, unknown>) : [];
  const status = item.status === 'completed' || item.status === 'failed' || item.status === 'declined' ? item.status : 'completed';
  return fileChangeItem(
    typeof item.id === 'string' ? item.id : '',
    changes.map(([path, change]) => {
      const { type, content, unified_diff: unifiedDiff, move_path: movePath } = (change ?? {}) as { type?: unknown; content?: unknown; unified_diff?: unknown; move_path?: unknown };
      const kind = type === 'add' || type === 'delete' ? type : 'update';
      const diff = typeof (kind === 'update' ? unifiedDiff : content) === 'string' ? ((kind === 'update' ? unifiedDiff : content) as string) : '';
      return { path, kind, diff, ...(kind === 'update' && typeof movePath === 'string' ? { movePath } : {}) };
    }),
    status,
    completedAtMs,
    completedAtMs,
  );
}

interface RecordedCommand {
  readonly type: 'CommandExecution';
  readonly id?: unknown;
  readonly process_id?: unknown;
  readonly command?: unknown;
  readonly cwd?: unknown;
  readonly parsed_cmd?: unknown;
  readonly source?: unknown;
  readonly status?: unknown;
  readonly aggregated_output?: unknown;
  readonly exit_code?: unknown;
  readonly duration?: unknown;
}

/** A recorded command as a `commandExecution` item; fields a file lacks are shown as unknown. */
function recordedCommand(item: RecordedCommand, completedAtMs: number): WireObject {
  const argv = Array.isArray(item.command) ? item.command.filter((word): word is string => typeof word === 'string') : [];
  const parsed = Array.isArray(item.parsed_cmd) ? (item.parsed_cmd[0] as { cmd?: unknown } | undefined) : undefined;
  const durationMs = recordedDurationMs(item.duration);
  const status = item.status === 'completed' || item.status === 'failed' || item.status === 'declined' ? item.status : 'completed';
  return commandExecutionItem({
    id: typeof item.id === 'string' ? item.id : '',
    command: displayCommand(argv),
    cmd: typeof parsed?.cmd === 'string' ? parsed.cmd : (argv.at(-1) ?? ''),
    cwd: typeof item.cwd === 'string' ? item.cwd.replace(/^file:\/\//, '') : '',
    source: item.source === 'user_shell' ? 'userShell' : item.source === 'agent' ? 'agent' : 'unifiedExecStartup',
    status,
    processId: typeof item.process_id === 'string' ? item.process_id : null,
    aggregatedOutput: typeof item.aggregated_output === 'string' ? item.aggregated_output : null,
    exitCode: typeof item.exit_code === 'number' ? item.exit_code : null,
    durationMs,
    startedAtMs: durationMs === null ? completedAtMs : completedAtMs - durationMs,
    completedAtMs,
  });
}

/** The first thing the user said, for `preview`. */
export function previewOf(loaded: LoadedThread, contextFragments?: readonly ContextFragmentDefinition[]): string {
  const first = loaded.history.find((item) => isUserTurnBoundary(item, contextFragments));
  return first === undefined ? '' : (userMessageText(first) ?? '');
}
