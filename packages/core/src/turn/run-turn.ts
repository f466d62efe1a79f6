// One turn: sample the model, run the tools it calls, sample again, until it answers without calling
// a tool. Interrupts record an aborted output for every unfinished call; model failures end the turn
// with a typed error. Everything the model produced is recorded in history at one boundary.
import { isKnownResponseItem, messageText, type ResponseItem } from '@skein/protocol';
import { ModelError } from '../model-client/model-error.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import type { ThreadHistory } from '../history/thread-history.js';
import type { ModelInfo } from '../model/model-catalog.js';
import { buildResponsesBody, type SamplingRequest } from '../model/responses-request.js';
import { isToolCall, type ToolCall, type ToolRouter } from '../tools/tool-router.js';
import type { CoreEvent } from './core-event.js';
import type { TokenUsage } from '../model-client/response-event.js';

/** What a turn runs with; the session owns these and passes them in. */
export interface TurnDependencies {
  readonly client: ResponsesClient;
  readonly history: ThreadHistory;
  readonly router: ToolRouter;
  readonly model: ModelInfo;
  /** The request fields that do not change within a turn. */
  readonly request: Omit<SamplingRequest, 'model' | 'input' | 'tools'>;
  readonly emit: (event: CoreEvent) => void;
  /** Monotonic milliseconds, for wall times. */
  readonly now: () => number;
}

/** One turn's parameters. */
export interface TurnParameters {
  readonly turnId: string;
  /** Context items recorded before the input (initial context or updates, extension fragments). */
  readonly context?: readonly ResponseItem[];
  /** Called once the context is recorded and before the input is (the rollout's turn_context goes here). */
  readonly onContextRecorded?: () => void;
  /** The user's input as response items. */
  readonly input: readonly ResponseItem[];
  readonly signal: AbortSignal;
  /** Request headers (session and thread ids, turn metadata). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Input the user added while the turn ran (`turn/steer`); taken before each sampling request. */
  readonly takeSteeredInput?: () => readonly ResponseItem[];
}

/** How a turn ended. */
export type TurnOutcome =
  | { readonly status: 'completed'; readonly lastAgentMessage: string | undefined }
  | { readonly status: 'interrupted' }
  | { readonly status: 'failed'; readonly error: ModelError };

/** The user message recorded after an interrupted turn, so the model knows why its work stopped. */
export const TURN_ABORTED_MESSAGE =
  '<turn_aborted>\nThe user interrupted the previous turn. Commands it started may still be running; check before relying on their results.\n</turn_aborted>';

/** Runs one turn to its end; never throws for model or tool failures (they become the outcome). */
export async function runTurn(deps: TurnDependencies, params: TurnParameters): Promise<TurnOutcome> {
  const { turnId, signal } = params;
  const started = deps.now();
  deps.emit({ type: 'turnStarted', turnId });
  recordAndAnnounce(deps, params.context ?? [], turnId);
  params.onContextRecorded?.();
  recordAndAnnounce(deps, params.input, turnId);
  try {
    for (;;) {
      const { produced, usage } = await sample(deps, params);
      const calls = produced.filter(isToolCall);
      try {
        if (calls.length > 0) await runCalls(deps, calls, params);
      } finally {
        // Codex reports a response's usage once the calls it asked for are done (or interrupted).
        if (usage !== undefined) deps.emit({ type: 'tokenUsage', turnId, usage });
      }
      // Input steered in while the model worked joins the history before the next request.
      const steered = recordAndAnnounce(deps, params.takeSteeredInput?.() ?? [], turnId);
      if (calls.length === 0 && steered.length === 0) {
        const lastAgentMessage = lastAssistantText(produced);
        deps.emit({ type: 'turnCompleted', turnId, lastAgentMessage });
        return { status: 'completed', lastAgentMessage };
      }
    }
  } catch (error) {
    if (signal.aborted) {
      const aborted = deps.history.recordAborted(turnId, (deps.now() - started) / 1000);
      for (const item of aborted) deps.emit({ type: 'itemCompleted', turnId, item });
      deps.history.record([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: TURN_ABORTED_MESSAGE }] }], turnId);
      deps.emit({ type: 'turnAborted', turnId, reason: 'interrupted' });
      return { status: 'interrupted' };
    }
    if (error instanceof ModelError) {
      deps.emit({ type: 'turnFailed', turnId, error });
      return { status: 'failed', error };
    }
    throw error;
  }
}

/** One sampling request; returns the items the model produced, as recorded, and the response's usage. */
async function sample(deps: TurnDependencies, params: TurnParameters): Promise<{ readonly produced: ResponseItem[]; readonly usage: TokenUsage | undefined }> {
  const { turnId } = params;
  const body = buildResponsesBody({ ...deps.request, model: deps.model, input: deps.history.forPrompt(), tools: deps.router.specs() });
  let attempt: ResponseItem[] = [];
  for await (const event of deps.client.stream(body, { signal: params.signal, ...(params.headers === undefined ? {} : { headers: params.headers }) })) {
    switch (event.type) {
      case 'retrying':
        // The broken attempt's items were never recorded; the retry produces them again.
        attempt = [];
        deps.emit({ type: 'streamRetrying', turnId, attempt: event.attempt, delayMs: event.delayMs, reason: event.reason });
        break;
      case 'outputItemAdded':
        if (!isToolCall(event.item)) deps.emit({ type: 'itemStarted', turnId, item: event.item });
        break;
      case 'outputTextDelta':
        deps.emit({ type: 'agentMessageDelta', turnId, itemId: event.itemId, delta: event.delta });
        break;
      case 'reasoningSummaryDelta':
        deps.emit({ type: 'reasoningSummaryDelta', turnId, itemId: event.itemId, delta: event.delta });
        break;
      case 'outputItemDone':
        attempt.push(event.item);
        break;
      case 'completed':
        return { produced: recordAndAnnounce(deps, attempt, turnId), usage: event.usage };
      case 'created':
      case 'reasoningContentDelta':
        break;
    }
  }
  throw new ModelError('StreamDisconnected', 'the stream ended before response.completed');
}

/**
 * Runs the calls (concurrently when the model allows it) and records their outputs in call order.
 * After an interrupt no further call starts; outputs of calls that did finish are recorded, so only
 * calls that never ran get the aborted output.
 */
async function runCalls(deps: TurnDependencies, calls: readonly ToolCall[], params: TurnParameters): Promise<void> {
  const { signal, turnId } = params;
  const outputs: (ResponseItem | undefined)[] = calls.map(() => undefined);
  const run = async (call: ToolCall, index: number) => {
    if (signal.aborted) return;
    deps.emit({ type: 'itemStarted', turnId, item: call });
    try {
      outputs[index] = (await deps.router.dispatch(call, { turnId, signal })).item;
    } catch (error) {
      // The router turns every failure into an output; only an interrupt propagates.
      if (!signal.aborted) throw error;
    }
  };
  if (deps.model.supportsParallelToolCalls) {
    await Promise.all(calls.map(run));
  } else {
    for (const [index, call] of calls.entries()) await run(call, index);
  }
  recordAndAnnounce(deps, outputs.filter((output) => output !== undefined), turnId);
  if (signal.aborted) throw new ModelError('Aborted', 'the turn was interrupted');
}

function recordAndAnnounce(deps: TurnDependencies, items: readonly ResponseItem[], turnId: string): ResponseItem[] {
  if (items.length === 0) return [];
  const recorded = deps.history.record(items, turnId);
  for (const item of recorded) deps.emit({ type: 'itemCompleted', turnId, item });
  return recorded;
}

function lastAssistantText(items: readonly ResponseItem[]): string | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (isKnownResponseItem(item) && item.type === 'message' && item.role === 'assistant') return messageText(item);
  }
  return undefined;
}
