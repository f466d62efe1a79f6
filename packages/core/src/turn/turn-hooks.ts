// The turn runner's hook points: before each sampling request (compaction, reminders, world state,
// environment updates, steered input), once a response has completed but before its tools run (a
// spent budget stops the turn there), after each response (token accounting, budgets), and when the
// turn would end (a Stop hook may send it on). Later features register hooks; the loop itself does
// not change.
import type { ResponseItem } from '@skein/protocol';
import type { BudgetExhaustedError } from '../budgets/budget-exhausted-error.js';
import type { TokenUsage } from '../model-client/response-event.js';

/** Where a turn is when a hook runs. */
export interface TurnStep {
  readonly turnId: string;
  /** 0 before the turn's first sampling request, then one more per request. */
  readonly samplingIndex: number;
  readonly signal: AbortSignal;
  /** The history as the next request would carry it now. */
  history(): readonly ResponseItem[];
}

/** Runs before each sampling request of a turn. */
export interface BeforeSamplingHook {
  /** Names the hook in warnings. */
  readonly name: string;
  /** Items to append; they are recorded (so the rollout keeps them) and the request carries them. */
  beforeSampling(step: TurnStep): Promise<readonly ResponseItem[]> | readonly ResponseItem[];
  /**
   * Whether items are waiting, so that a turn whose model answered without calling a tool samples
   * once more to carry them (input steered in while the model worked).
   */
  hasPending?(): boolean;
}

/** One response, as after-response hooks see it. */
export interface SampledResponse {
  /** The items the model produced, as recorded. */
  readonly produced: readonly ResponseItem[];
  readonly usage: TokenUsage | undefined;
  /** How many tool calls it made (their outputs are recorded by now, unless interrupted). */
  readonly toolCalls: number;
}

/** An after-response hook may end the turn (an exhausted budget); its reason is reported as a warning. */
export type AfterResponseVerdict = { readonly endTurn: true; readonly reason: string } | undefined;

/** Runs after each response of a turn, once its calls are done (or interrupted). */
export interface AfterResponseHook {
  readonly name: string;
  afterResponse(step: TurnStep, response: SampledResponse): Promise<AfterResponseVerdict> | AfterResponseVerdict;
}

/**
 * Runs once a response has completed, before any tool it called is dispatched. Returning an error
 * stops the turn there: its calls are answered `aborted before dispatch` and the turn fails with it.
 */
export interface ResponseGate {
  readonly name: string;
  gateResponse(step: TurnStep, response: SampledResponse): BudgetExhaustedError | undefined;
}

/** Where a turn stands when it would end. */
export interface TurnStopping {
  readonly lastAgentMessage: string | undefined;
  /** How many times a stop gate has already sent this turn on. */
  readonly continuations: number;
}

/** Runs when a turn would end (its model answered without calling a tool): it may send the turn on. */
export interface StopGate {
  readonly name: string;
  /** Items to record before sampling once more (a hook's prompt); none lets the turn end. */
  beforeStop(step: TurnStep, stopping: TurnStopping): Promise<readonly ResponseItem[]>;
}

/** One sampling request of a turn, as observers see it. */
export interface ModelRequestPlace {
  /** Names the request, the same before and after it. */
  readonly requestId: string;
}

/** How a sampling request ended. */
export type ModelRequestResult =
  | { readonly status: 'completed'; readonly responseId: string | undefined; readonly usage: TokenUsage | undefined }
  | { readonly status: 'failed'; readonly error: string };

/** Watches each sampling request: before it is sent, and once its response completed (before its tools run) or it failed. */
export interface ModelRequestObserver {
  readonly name: string;
  beforeRequest(step: TurnStep, request: ModelRequestPlace): Promise<void>;
  afterRequest(step: TurnStep, request: ModelRequestPlace, result: ModelRequestResult): Promise<void>;
}

/** Told when a turn was interrupted, before the client is (the Interrupt hooks). */
export interface InterruptObserver {
  readonly name: string;
  interrupted(turnId: string): Promise<void>;
}

/** A turn's hooks, each list run in order. */
export interface TurnHooks {
  readonly beforeSampling: readonly BeforeSamplingHook[];
  readonly responseGates?: readonly ResponseGate[];
  readonly afterResponse: readonly AfterResponseHook[];
  readonly stopGates?: readonly StopGate[];
  readonly modelRequests?: readonly ModelRequestObserver[];
  readonly interrupts?: readonly InterruptObserver[];
}

/** No hooks. */
export const NO_TURN_HOOKS: TurnHooks = { beforeSampling: [], responseGates: [], afterResponse: [], stopGates: [], modelRequests: [], interrupts: [] };

/** Joins hook sets, keeping each list's order (earlier sets first). */
export function combineTurnHooks(...sets: readonly Partial<TurnHooks>[]): TurnHooks {
  return {
    beforeSampling: sets.flatMap((set) => set.beforeSampling ?? []),
    responseGates: sets.flatMap((set) => set.responseGates ?? []),
    afterResponse: sets.flatMap((set) => set.afterResponse ?? []),
    stopGates: sets.flatMap((set) => set.stopGates ?? []),
    modelRequests: sets.flatMap((set) => set.modelRequests ?? []),
    interrupts: sets.flatMap((set) => set.interrupts ?? []),
  };
}
