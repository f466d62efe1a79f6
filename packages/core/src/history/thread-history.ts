// The model-visible history of a thread. Items are recorded at one boundary, where each gets its
// id (a type-prefixed UUIDv7 unless the server sent one) and its turn, and large tool outputs are cut
// to the budget. The prompt view keeps every tool call paired with an output.
import {
  ensureResponseItemId,
  isKnownResponseItem,
  randomUuidV7,
  toolCallId,
  toolOutputCallId,
  toolOutputFor,
  withResponseItemMetadata,
  type ResponseItem,
  type ToolOutputBody,
  type UuidV7Source,
} from '@skein/protocol';
import { truncateMiddle } from './truncate-output.js';

/** Settings of one thread's history. */
export interface ThreadHistoryOptions {
  /** Token budget of one tool output as the model sees it (`tool_output_token_limit`). */
  readonly toolOutputTokenLimit: number;
  readonly uuid?: UuidV7Source;
  /** Told about every batch of recorded items, in order (the session persists them from here). */
  readonly onRecorded?: (items: readonly ResponseItem[]) => void;
}

/** The default output budget, in tokens. */
export const DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT = 10_000;

// Tools whose interrupted calls report in the command-output layout (wall time first).
const COMMAND_TOOLS = new Set(['exec_command', 'write_stdin', 'shell', 'shell_command']);

/**
 * The output recorded for a call whose turn was interrupted before it finished: commands report
 * their wall time like their normal output, other tools say how long they had run (as Codex does).
 */
export function abortedOutput(wallTimeSeconds: number, toolName?: string): string {
  if (toolName !== undefined && !COMMAND_TOOLS.has(toolName)) return `aborted by user after ${wallTimeSeconds.toFixed(1)}s`;
  return `Wall time: ${wallTimeSeconds.toFixed(1)} seconds\naborted by user`;
}

/**
 * What the prompt carries for a call that has no output on record (its process was killed before
 * the call ended, or a compaction kept the call only): Codex sends the bare word.
 */
export const MISSING_OUTPUT = 'aborted';

/** An append-only list of response items with the bookkeeping the prompt needs. */
export class ThreadHistory {
  readonly #items: ResponseItem[] = [];
  readonly #limit: number;
  readonly #uuid: UuidV7Source;
  readonly #onRecorded: ((items: readonly ResponseItem[]) => void) | undefined;
  #instructions: ResponseItem | undefined;

  constructor(options: ThreadHistoryOptions) {
    this.#limit = options.toolOutputTokenLimit;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#onRecorded = options.onRecorded;
  }

  /** Every recorded item, in order. */
  get items(): readonly ResponseItem[] {
    return this.#items;
  }

  /**
   * Records items produced in `turnId`: assigns missing ids, tags the turn, truncates tool outputs.
   * Items from outside any turn (a client's injected items) pass no turn and carry no tag, so no
   * turn's record shows them. Returns the items as recorded (what the rollout must persist).
   */
  record(items: readonly ResponseItem[], turnId: string | undefined): ResponseItem[] {
    const recorded = items.map((item) => {
      const withId = ensureResponseItemId(this.#truncate(item), this.#uuid);
      return turnId === undefined ? withId : withResponseItemMetadata(withId, { turn_id: turnId });
    });
    this.#items.push(...recorded);
    if (recorded.length > 0) this.#onRecorded?.(recorded);
    return recorded;
  }

  /** Replaces the whole history (resume, compaction); items are taken as already recorded. */
  replace(items: readonly ResponseItem[]): void {
    this.#items.splice(0, this.#items.length, ...items);
  }

  /** Calls that have no output yet, oldest first. */
  pendingCalls(): ResponseItem[] {
    const answered = new Set(this.#items.map(toolOutputCallId).filter((id) => id !== undefined));
    return this.#items.filter((item) => {
      const id = toolCallId(item);
      return id !== undefined && !answered.has(id);
    });
  }

  /**
   * Records an `aborted by user` output for every call still waiting on one, as Codex does when a
   * turn is interrupted; returns the outputs recorded.
   */
  recordAborted(turnId: string, wallTimeSeconds: number): ResponseItem[] {
    const outputs = this.pendingCalls().map((call) =>
      toolOutputFor({ type: call.type, call_id: toolCallId(call)! }, abortedOutput(wallTimeSeconds, 'name' in call && typeof call.name === 'string' ? call.name : undefined)),
    );
    return this.record(outputs, turnId);
  }

  /**
   * Sets the base instructions every request starts with. They are not part of the recorded history
   * (Codex keeps them in the rollout's header); the message keeps one id for the thread's lifetime.
   */
  setInstructions(text: string): void {
    this.#instructions = ensureResponseItemId({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] }, this.#uuid);
  }

  /**
   * The input for the next request: the base instructions, then the history with every call
   * answered (a missing output would make the API reject the request) and no output whose call is
   * gone (after compaction or a rollback).
   */
  forPrompt(): ResponseItem[] {
    const calls = new Set(this.#items.map(toolCallId).filter((id) => id !== undefined));
    const answered = new Set(this.#items.map(toolOutputCallId).filter((id) => id !== undefined));
    const prompt: ResponseItem[] = this.#instructions === undefined ? [] : [this.#instructions];
    for (const item of this.#items) {
      const outputFor = toolOutputCallId(item);
      if (outputFor !== undefined && !calls.has(outputFor)) continue;
      prompt.push(item);
      const callId = toolCallId(item);
      if (callId !== undefined && !answered.has(callId)) prompt.push(toolOutputFor({ type: item.type, call_id: callId }, MISSING_OUTPUT));
    }
    return prompt;
  }

  #truncate(item: ResponseItem): ResponseItem {
    if (!isKnownResponseItem(item) || (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output')) return item;
    return { ...item, output: truncateBody(item.output, this.#limit) };
  }
}

function truncateBody(body: ToolOutputBody, limit: number): ToolOutputBody {
  if (typeof body === 'string') return truncateMiddle(body, limit);
  return body.map((part) => (part.type === 'input_text' && 'text' in part && typeof part.text === 'string' ? { ...part, text: truncateMiddle(part.text, limit) } : part));
}
