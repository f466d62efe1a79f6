// One turn: sample the model, run the tools it calls, sample again, until it answers without calling
// a tool. Hooks run before each request and after each response. Interrupts record an aborted output
// for every unfinished call; model failures and fatal tool errors end the turn with a typed error; a
// spent budget aborts it, saying why.
// What the model produced is recorded in history at one boundary, item by item as the stream
// completes each (tool calls once the response is whole); what is recorded is in the thread's file
// before the next request goes out.
import { FatalToolError } from '@skein/extension-api';
import { TURN_ABORTED_FRAGMENT, isKnownResponseItem, messageText, toolCallId, toolOutputFor, withResponseItemMetadata, type AdditionalToolsItem, type ResponseItem } from '@skein/protocol';
import { BudgetExhaustedError } from '../budgets/budget-exhausted-error.js';
import { ModelError } from '../model-client/model-error.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import type { ThreadHistory } from '../history/thread-history.js';
import type { ModelInfo } from '../model/model-catalog.js';
import { buildResponsesBody, type SamplingRequest } from '../model/responses-request.js';
import { isModelCall, type ToolRouter } from '../tools/tool-router.js';
import type { TurnToolCalls } from '../tools/turn-tool-calls.js';
import type { CoreEvent } from './core-event.js';
import { ThreadSessionError } from '../session/active-turn.js';
import type { TokenUsage } from '../model-client/response-event.js';
import { NO_TURN_HOOKS, type AfterResponseVerdict, type ModelRequestObserver, type SampledResponse, type TurnHooks, type TurnStep, type TurnStopping } from './turn-hooks.js';
import { observeModelRequest } from './observe-model-request.js';

/** What a turn runs with; the session owns these and passes them in. */
export interface TurnDependencies {
  /** Awaited just before the turn's last event (its files' closing checkpoints): a client that hears the end finds the thread free. */
  readonly beforeEnd?: (() => Promise<void>) | undefined;
  readonly client: ResponsesClient;
  readonly history: ThreadHistory;
  /** The tools offered (its `direct` specs go into every request). */
  readonly router: ToolRouter;
  /** Runs the calls of each response. */
  readonly calls: TurnToolCalls;
  readonly model: ModelInfo;
  /** The request fields that do not change within a turn. */
  readonly request: Omit<SamplingRequest, 'model' | 'input' | 'tools'>;
  readonly emit: (event: CoreEvent) => void;
  /** Monotonic milliseconds, for wall times. */
  readonly now: () => number;
  readonly hooks?: TurnHooks;
  /**
   * Resolves once everything recorded so far is in the thread's file. Awaited before each request:
   * what the model is about to see (the user's input first of all) must survive a crash of this
   * process, so a resumed thread holds it.
   */
  readonly written?: () => Promise<void>;
  /** Told the `additional_tools` item each request of a code-mode model offers (the rollout records it when it changes). */
  readonly onOffered?: (item: AdditionalToolsItem) => void;
}

/** One turn's parameters. */
export interface TurnParameters {
  readonly turnId: string;
  /** Context items recorded before the input (initial context or updates, extension fragments). */
  readonly context?: readonly ResponseItem[];
  /** Called once the context is recorded and before the input is (the rollout's turn_context goes here). */
  readonly onContextRecorded?: () => void;
  /** The user's input as response items. */
  readonly input?: readonly ResponseItem[];
  /** Called once the input is recorded (the rollout's user-message item goes here). */
  readonly onInputRecorded?: () => void;
  /**
   * Runs once the turn has started and before anything is recorded (a compaction due before the
   * turn), and gives the turn's context and input in place of `context` and `input`. A model error
   * here fails the turn.
   */
  readonly open?: () => Promise<Pick<TurnParameters, 'context' | 'onContextRecorded' | 'input' | 'onInputRecorded' | 'stopBeforeSampling'>>;
  /** Why the turn ends once its context is recorded, without asking the model (a UserPromptSubmit hook blocked the prompt). */
  readonly stopBeforeSampling?: string | undefined;
  readonly signal: AbortSignal;
  /** Request headers (session and thread ids, turn metadata). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Headers and client metadata read before each request, replacing `headers` and the request's
   * `clientMetadata`: a compaction between two samplings moves the turn to the next context window.
   */
  readonly requestMetadata?: () => { readonly headers: Readonly<Record<string, string>>; readonly clientMetadata: Readonly<Record<string, string>> };
}

/**
 * Why a turn failed (the model request, a tool that declared the turn unable to go on, a user shell
 * command with nowhere to run) or was stopped (the session's spent rollout budget).
 */
export type TurnError = ModelError | FatalToolError | BudgetExhaustedError | ThreadSessionError;

/** How a turn ended. */
export type TurnOutcome =
  | { readonly status: 'completed'; readonly lastAgentMessage: string | undefined }
  /** Stopped before its end: by the user, or by what `error` says (the session's spent budget). */
  | { readonly status: 'interrupted'; readonly error?: TurnError }
  | { readonly status: 'failed'; readonly error: TurnError };

/** The user message recorded after an interrupted turn, so the model knows why its work stopped. */
export const TURN_ABORTED_MESSAGE = TURN_ABORTED_FRAGMENT.render(
  'The user interrupted the previous turn. Commands it started may still be running; check before relying on their results.',
).text;

/** The note recorded after a turn the spent rollout budget stopped (Codex records its interrupt note). */
export const BUDGET_EXHAUSTED_MESSAGE = TURN_ABORTED_FRAGMENT.render(
  "The session's shared token budget ran out, so the previous turn was stopped; the tools it last asked for did not run.",
).text;

/** The output of a call the turn stopped before running (Codex's words, so histories read alike). */
export const UNDISPATCHED_OUTPUT = 'aborted before dispatch';

/** Runs one turn to its end; never throws for model or tool failures (they become the outcome). */
export async function runTurn(deps: TurnDependencies, params: TurnParameters): Promise<TurnOutcome> {
  const { turnId, signal } = params;
  const hooks = deps.hooks ?? NO_TURN_HOOKS;
  const started = deps.now();
  deps.emit({ type: 'turnStarted', turnId });
  try {
    const opening = params.open === undefined ? params : await params.open();
    recordAndAnnounce(deps, opening.context ?? [], turnId);
    opening.onContextRecorded?.();
    // The hook's run already told the client why (Codex says nothing more, probed).
    if (opening.stopBeforeSampling !== undefined) {
      await deps.beforeEnd?.();
      deps.emit({ type: 'turnCompleted', turnId, lastAgentMessage: undefined });
      return { status: 'completed', lastAgentMessage: undefined };
    }
    recordAndAnnounce(deps, opening.input ?? [], turnId);
    opening.onInputRecorded?.();
    let continuations = 0;
    for (let samplingIndex = 0; ; samplingIndex++) {
      const step: TurnStep = { turnId, samplingIndex, signal, history: () => deps.history.forPrompt() };
      for (const hook of hooks.beforeSampling) recordAndAnnounce(deps, await hook.beforeSampling(step), turnId);
      const { produced, usage } = await observedSample(deps, params, hooks.modelRequests ?? [], step);
      const calls = produced.filter(isModelCall);
      const response: SampledResponse = { produced, usage, toolCalls: calls.length };
      const stop = gateResponse(hooks, step, response);
      let verdict: AfterResponseVerdict;
      try {
        if (stop !== undefined) {
          recordAndAnnounce(deps, calls.map((call) => toolOutputFor({ type: call.type, call_id: toolCallId(call)! }, UNDISPATCHED_OUTPUT)), turnId);
        } else if (calls.length > 0) {
          recordAndAnnounce(deps, (await deps.calls.runAll(calls, { turnId, signal })).filter((output) => output !== undefined), turnId);
          if (signal.aborted) throw new ModelError('Aborted', 'the turn was interrupted');
        }
      } finally {
        // Codex reports a response's usage once the calls it asked for are done (or interrupted).
        if (usage !== undefined) deps.emit({ type: 'tokenUsage', turnId, usage });
        verdict = await afterResponse(hooks, step, response);
      }
      if (stop !== undefined) throw stop;
      // An interrupt that came while the response was being accounted for: the turn does not go on.
      if (signal.aborted) throw new ModelError('Aborted', 'the turn was aborted');
      const pending = hooks.beforeSampling.some((hook) => hook.hasPending?.() === true);
      if (verdict !== undefined || (calls.length === 0 && !pending)) {
        if (verdict !== undefined) deps.emit({ type: 'warning', message: `the turn was ended: ${verdict.reason}` });
        const lastAgentMessage = lastAssistantText(produced);
        // A stop gate may send the turn on, with what it wants the model to read.
        const more = verdict === undefined ? await beforeStop(hooks, step, { lastAgentMessage, continuations }) : [];
        if (signal.aborted) throw new ModelError('Aborted', 'the turn was interrupted');
        if (more.length > 0) {
          continuations += 1;
          recordAndAnnounce(deps, more, turnId);
          continue;
        }
        await deps.beforeEnd?.();
      deps.emit({ type: 'turnCompleted', turnId, lastAgentMessage });
        return { status: 'completed', lastAgentMessage };
      }
    }
  } catch (error) {
    if (error instanceof BudgetExhaustedError) {
      // An aborted turn, as after an interrupt, that says why (also when the user interrupted it
      // meanwhile): the model reads the budget's note, the client gets the error with the usual
      // aborted-turn events.
      deps.history.record([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: BUDGET_EXHAUSTED_MESSAGE }] }], turnId);
      await deps.beforeEnd?.();
      deps.emit({ type: 'turnAborted', turnId, reason: 'interrupted', error });
      return { status: 'interrupted', error };
    }
    if (signal.aborted) {
      await tellInterrupted(deps, hooks, turnId);
      const aborted = deps.history.recordAborted(turnId, (deps.now() - started) / 1000);
      for (const item of aborted) deps.emit({ type: 'itemCompleted', turnId, item });
      deps.history.record([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: TURN_ABORTED_MESSAGE }] }], turnId);
      await deps.beforeEnd?.();
      deps.emit({ type: 'turnAborted', turnId, reason: 'interrupted' });
      return { status: 'interrupted' };
    }
    if (error instanceof ModelError || error instanceof FatalToolError || (error instanceof ThreadSessionError && error.code === 'RecordUnavailable')) {
      await deps.beforeEnd?.();
      deps.emit({ type: 'turnFailed', turnId, error });
      return { status: 'failed', error };
    }
    throw error;
  }
}

/**
 * Waits until what the turn recorded is kept where a killed process keeps it. A store that cannot
 * keep it now (its database is away) fails the turn before the model is sent what was not kept.
 */
async function keptBeforeRequest(deps: TurnDependencies): Promise<void> {
  try {
    await deps.written?.();
  } catch (error) {
    throw new ThreadSessionError('RecordUnavailable', `the thread's record could not be kept, so the model was not asked: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Tells the interrupt observers, each in turn; one that throws is a warning, never the turn's end. */
async function tellInterrupted(deps: TurnDependencies, hooks: TurnHooks, turnId: string): Promise<void> {
  for (const observer of hooks.interrupts ?? []) {
    await observer.interrupted(turnId).catch((error: unknown) => deps.emit({ type: 'warning', message: `${observer.name}: ${error instanceof Error ? error.message : String(error)}` }));
  }
}

/** Runs every response gate; the first that stops the turn decides. */
function gateResponse(hooks: TurnHooks, step: TurnStep, response: SampledResponse): BudgetExhaustedError | undefined {
  for (const gate of hooks.responseGates ?? []) {
    const stop = gate.gateResponse(step, response);
    if (stop !== undefined) return stop;
  }
  return undefined;
}

/** Runs the stop gates until one sends the turn on. */
async function beforeStop(hooks: TurnHooks, step: TurnStep, stopping: TurnStopping): Promise<readonly ResponseItem[]> {
  for (const gate of hooks.stopGates ?? []) {
    const items = await gate.beforeStop(step, stopping);
    if (items.length > 0) return items;
  }
  return [];
}

/** Runs every after-response hook; the first that ends the turn decides. */
async function afterResponse(hooks: TurnHooks, step: TurnStep, response: SampledResponse): Promise<AfterResponseVerdict> {
  let verdict: AfterResponseVerdict;
  for (const hook of hooks.afterResponse) verdict ??= await hook.afterResponse(step, response);
  return verdict;
}

/** One sampling request, with its observers told before it goes out and once it ends. */
function observedSample(deps: TurnDependencies, params: TurnParameters, observers: readonly ModelRequestObserver[], step: TurnStep): Promise<SampleResult> {
  const warn = (message: string) => deps.emit({ type: 'warning', message });
  return observeModelRequest(observers, step, warn, () => sample(deps, params), (result) => ({ status: 'completed', responseId: result.responseId, usage: result.usage }));
}

/** What one sampling request produced. */
interface SampleResult {
  readonly produced: ResponseItem[];
  readonly usage: TokenUsage | undefined;
  readonly responseId: string | undefined;
}

/** One sampling request; returns the items the model produced, as recorded, and the response's usage. */
async function sample(deps: TurnDependencies, params: TurnParameters): Promise<SampleResult> {
  const { turnId } = params;
  const metadata = params.requestMetadata?.();
  // Built for each attempt: a retry carries what the broken attempt had already completed.
  // A code-mode model is offered its tools as the first input item (`additional_tools`), not as `tools`.
  const offered = deps.router.additionalTools;
  if (offered !== undefined) deps.onOffered?.(offered);
  const input = () => (offered === undefined ? deps.history.forPrompt() : [offered, ...deps.history.forPrompt()]);
  const body = () => buildResponsesBody({ ...deps.request, ...(metadata === undefined ? {} : { clientMetadata: metadata.clientMetadata }), model: deps.model, input: input(), tools: deps.router.specs() });
  const headers = metadata?.headers ?? params.headers;
  await keptBeforeRequest(deps);
  const produced: ResponseItem[] = [];
  // As Codex, an item is recorded as soon as the stream completes it, so a crash or a cut stream
  // keeps it. Tool calls (and what follows one) wait for the response's end: a call runs only once
  // the response is whole, and a retry produces the call again. Reasoning waits for the item it
  // leads to: the API refuses a reasoning item sent without its following one.
  let heldBack: ResponseItem[] = [];
  for await (const event of deps.client.stream(body, { signal: params.signal, ...(headers === undefined ? {} : { headers }) })) {
    switch (event.type) {
      case 'retrying':
        heldBack = [];
        deps.emit({ type: 'streamRetrying', turnId, attempt: event.attempt, delayMs: event.delayMs, reason: event.reason });
        // The retry carries what was recorded; it must be in the thread's file before it goes out.
        await keptBeforeRequest(deps);
        break;
      case 'outputItemAdded':
        if (!isModelCall(event.item)) deps.emit({ type: 'itemStarted', turnId, item: event.item });
        break;
      case 'outputTextDelta':
        deps.emit({ type: 'agentMessageDelta', turnId, itemId: event.itemId, delta: event.delta });
        break;
      case 'reasoningSummaryDelta':
        deps.emit({ type: 'reasoningSummaryDelta', turnId, itemId: event.itemId, delta: event.delta });
        break;
      case 'outputItemDone': {
        // What a hosted search brought back came from outside the thread's machine and environments.
        const item = event.item.type === 'web_search_call' ? withResponseItemMetadata(event.item, { external_context: true }) : event.item;
        if (!isModelCall(item) && item.type !== 'reasoning' && !heldBack.some(isModelCall)) {
          produced.push(...recordAndAnnounce(deps, [...heldBack, item], turnId));
          heldBack = [];
        } else {
          heldBack.push(item);
        }
        break;
      }
      case 'completed':
        produced.push(...recordAndAnnounce(deps, heldBack, turnId));
        return { produced, usage: event.usage, responseId: event.responseId };
      case 'safetyBuffering':
        // Only a notice: the server releases what it held as ordinary events afterwards.
        deps.emit({ type: 'safetyBuffering', turnId, model: deps.model.slug, useCases: event.useCases, reasons: event.reasons, fasterModel: event.fasterModel });
        break;
      case 'created':
      case 'reasoningContentDelta':
        break;
    }
  }
  throw new ModelError('StreamDisconnected', 'the stream ended before response.completed');
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
