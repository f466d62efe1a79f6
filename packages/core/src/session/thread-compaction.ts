// A thread's context windows and the compactions that move it from one to the next: when one is due
// (the last response's usage at the auto-compaction limit), the before-sampling hook that compacts
// mid-turn, and the compaction itself — the model's summary, the replacement history, the next
// window and its `compacted` record. A failed request changes nothing.
import type { Config } from '@skein/config';
import type { UuidV7Source } from '@skein/protocol';
import { BudgetExhaustedError } from '../budgets/budget-exhausted-error.js';
import { requestHandoffSummary } from '../compaction/compaction-request.js';
import { firstContextWindow, nextContextWindow, type ContextWindow } from '../compaction/context-window.js';
import { handoffSummaryText } from '../compaction/handoff-summary.js';
import { buildReplacementHistory } from '../compaction/replacement-history.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import type { ThreadHistory } from '../history/thread-history.js';
import { approximateTokens } from '../history/truncate-output.js';
import { ModelError } from '../model-client/model-error.js';
import type { TokenUsage } from '../model-client/response-event.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import { autoCompactTokenLimit, type ModelInfo } from '../model/model-catalog.js';
import type { SamplingRequest } from '../model/responses-request.js';
import type { CompactionTrigger, TurnRequestMetadata } from '../model/turn-metadata.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnOutcome } from '../turn/run-turn.js';
import type { BeforeSamplingHook } from '../turn/turn-hooks.js';
import type { ActiveTurn, TurnSlot } from './active-turn.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { observeModelRequest } from '../turn/observe-model-request.js';
import { hookModelRequests } from './hook-turn-events.js';
import type { TurnHookRunner } from './thread-hooks.js';
import type { TokenAccounting } from './token-accounting.js';
import type { TurnContextAssembly } from './turn-context-assembly.js';

/** What one compaction runs with: the turn it belongs to and how its request identifies itself. */
export interface CompactionRun {
  readonly turnId: string;
  readonly signal: AbortSignal;
  readonly config: Config;
  readonly model: ModelInfo;
  /** Between two samplings the current prompt keeps its place last, with the context before it (as Codex does). */
  readonly phase: CompactionTrigger['phase'];
  readonly metadata: () => TurnRequestMetadata;
  /** The thread's lifecycle hooks, for PreCompact and PostCompact. */
  readonly hooks?: (() => Promise<TurnHookRunner>) | undefined;
}

/** The parts of its session a thread's compaction works with. */
export interface ThreadCompactionOptions {
  readonly threadId: string;
  readonly client: ResponsesClient;
  readonly uuid: UuidV7Source;
  readonly history: ThreadHistory;
  readonly tokens: TokenAccounting;
  readonly context: TurnContextAssembly;
  readonly recorder: ThreadRecorder;
  readonly extensions: ExtensionHost;
  readonly emit: (event: CoreEvent) => void;
  /** The request fields every request of a turn shares. */
  readonly requestFields: (config: Config, clientMetadata: Readonly<Record<string, string>>) => Omit<SamplingRequest, 'model' | 'input' | 'tools'>;
  /** Charges the compaction's usage to the rollout budget; `exhausted` when that spent it. */
  readonly chargeUsage?: (usage: TokenUsage | undefined) => 'exhausted' | undefined;
}

/** The context windows of one thread. */
export class ThreadCompaction {
  readonly #options: ThreadCompactionOptions;
  #window: ContextWindow;

  constructor(options: ThreadCompactionOptions) {
    this.#options = options;
    this.#window = firstContextWindow(options.threadId);
  }

  /** The window the thread is in. */
  get window(): ContextWindow {
    return this.#window;
  }

  /** Continues in a recorded window (resume, fork); the first one when none was recorded. */
  restore(window: ContextWindow | undefined): void {
    this.#window = window ?? firstContextWindow(this.#options.threadId);
  }

  /** Whether the last response's usage reached the auto-compaction limit (and the feature allows compacting). */
  isDue(config: Config, model: ModelInfo): boolean {
    if (!config.features.isEnabled('auto_compaction')) return false;
    return this.#options.history.items.length > 0 && this.#options.tokens.windowTokens >= autoCompactTokenLimit(model, config.modelAutoCompactTokenLimit);
  }

  /** Compacts between two samplings of a turn when the response before pushed usage over the limit. */
  midTurnHook(run: CompactionRun): BeforeSamplingHook {
    return {
      name: 'auto-compaction',
      beforeSampling: async (step) => {
        if (step.samplingIndex > 0 && this.isDue(run.config, run.model)) await this.compact(run);
        return [];
      },
    };
  }

  /**
   * A compaction as a turn of its own (`thread/compact/start`), whether or not automatic compaction
   * is enabled; refuses while another turn runs.
   */
  async runAsTurn(slot: TurnSlot, runFor: (turn: ActiveTurn) => CompactionRun): Promise<TurnOutcome> {
    const active = slot.begin();
    const { turnId } = active;
    slot.emit({ type: 'turnStarted', turnId });
    try {
      await this.compact(runFor(active));
      await this.#options.recorder.flush();
      slot.emit({ type: 'turnCompleted', turnId, lastAgentMessage: undefined });
      return { status: 'completed', lastAgentMessage: undefined };
    } catch (error) {
      if (active.controller.signal.aborted) {
        slot.emit({ type: 'turnAborted', turnId, reason: 'interrupted' });
        return { status: 'interrupted' };
      }
      if (error instanceof BudgetExhaustedError) {
        slot.emit({ type: 'turnAborted', turnId, reason: 'interrupted', error });
        return { status: 'interrupted', error };
      }
      if (!(error instanceof ModelError)) throw error;
      slot.emit({ type: 'turnFailed', turnId, error });
      return { status: 'failed', error };
    } finally {
      slot.end(active);
    }
  }

  /** One compaction; a failed request changes nothing (the error is rethrown for the turn). */
  async compact(run: CompactionRun): Promise<void> {
    const { history, tokens, emit, uuid } = this.#options;
    const { turnId, config, model } = run;
    // Codex's compaction items are bare UUIDv7s.
    const itemId = uuid();
    // Hooks see it as Codex names it: a client's compaction is manual, one the window made due is auto.
    const trigger = run.phase === 'standalone_turn' ? 'manual' : 'auto';
    const hooks = await run.hooks?.();
    const compactHook = async (event: 'preCompact' | 'postCompact') => {
      if (hooks?.hasHooks(event) === true) await hooks.run({ event, turnId, matchValue: trigger, signal: run.signal, fields: { trigger } });
    };
    emit({ type: 'compactionStarted', turnId, itemId });
    // The client first sees the usage that made the compaction due (as Codex reports it).
    tokens.announce(turnId);
    try {
      await compactHook('preCompact');
      const metadata = run.metadata();
      const send = () =>
        requestHandoffSummary({
          client: this.#options.client,
          model,
          request: this.#options.requestFields(config, metadata.clientMetadata),
          input: history.forPrompt(),
          headers: metadata.headers,
          signal: run.signal,
          uuid,
          onRetry: (retry) => emit({ type: 'streamRetrying', turnId, ...retry }),
        });
      // The summary request is a model request of its own to PreModelRequest and PostModelRequest hooks (Codex's `foreground_compaction`).
      const observer = hooks === undefined ? undefined : hookModelRequests(hooks, this.#options.threadId, 'foreground_compaction');
      const step = { turnId, samplingIndex: 0, signal: run.signal, history: () => history.forPrompt() };
      const warn = (message: string) => emit({ type: 'warning', message });
      const { summary, usage } = await observeModelRequest(observer === undefined ? [] : [observer], step, warn, send, (response) => ({ status: 'completed', responseId: response.responseId, usage: response.usage }));
      // Charged before the next window starts; a spent budget aborts the turn without a retry, keeping the old window.
      if (this.#options.chargeUsage?.(usage) === 'exhausted') throw new BudgetExhaustedError();
      const window = nextContextWindow(this.#window, uuid);
      const context = await this.#options.context.compactionContext(config, turnId, window);
      const replacement = buildReplacementHistory({
        context: context.items,
        contextPlacement: run.phase === 'mid_turn' ? 'beforeLastPrompt' : 'start',
        history: history.items,
        summary,
        contextFragments: this.#options.extensions.contextFragments,
        turnId,
        uuid,
      });
      history.replace(replacement);
      this.#window = window;
      context.onReplaced();
      this.#options.recorder.recordCompaction({ message: handoffSummaryText(summary), replacementHistory: replacement, window });
      tokens.compacted(turnId, usage, approximateTokens(JSON.stringify(history.forPrompt())));
    } catch (error) {
      emit({ type: 'compactionEnded', turnId, itemId, status: 'failed' });
      throw error;
    }
    emit({ type: 'compactionEnded', turnId, itemId, status: 'completed' });
    // Once the compaction is done and reported: nothing the hook does can undo it.
    await compactHook('postCompact');
  }
}
