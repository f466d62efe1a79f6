// One model turn of a thread session, from claiming the thread to freeing it again: the turn's
// tools, hooks, opening and compactions, wired from the session's parts. Kept apart from
// ThreadSession so each reads on its own: the session is the thread's API, this is a turn's plumbing.
import type { Config } from '@skein/config';
import type { UserInput } from '@skein/protocol';
import type { TurnCheckpoints } from '../checkpoints/thread-checkpoints.js';
import type { ModelInfo } from '../model/model-catalog.js';
import type { CompactionTrigger, TurnRequestMetadata } from '../model/turn-metadata.js';
import type { RunTurnOptions } from '../thread-handle.js';
import type { ToolRouter } from '../tools/tool-router.js';
import { TurnToolCalls } from '../tools/turn-tool-calls.js';
import { runTurn, type TurnDependencies, type TurnOutcome, type TurnParameters } from '../turn/run-turn.js';
import { combineTurnHooks } from '../turn/turn-hooks.js';
import type { ActiveTurn } from './active-turn.js';
import { turnLifecycleHooks } from './hook-turn-events.js';
import type { CompactionRun } from './thread-compaction.js';
import type { TurnHookRunner } from './thread-hooks.js';
import type { SessionParts } from './thread-session-parts.js';
import type { ThreadSessionOptions } from './thread-session-options.js';
import { TurnEnvironments } from './turn-environments.js';
import { openTurn, type TurnOpeningSteps } from './turn-opening.js';
import { sharedRequestFields, type RequestPlace } from './turn-requests.js';
import { worldStateStep } from './world-state-step.js';

/** What a turn runs with: the session's parts and options, and the settings it has now. */
export interface TurnRunnerParts
  extends Pick<SessionParts, 'uuid' | 'emit' | 'turns' | 'goalWork' | 'offeredTools' | 'hooks' | 'environments' | 'approvals' | 'elicit' | 'context' | 'tools' | 'tokens' | 'history' | 'checkpoints' | 'compaction' | 'injected' | 'budgets'> {
  readonly options: Pick<ThreadSessionOptions, 'threadId' | 'client' | 'extensions' | 'recorder' | 'clock' | 'hooks'>;
  /** The settings a turn starting now runs with. */
  config(): Config;
  model(): ModelInfo;
  /** The headers and client metadata of one request, in the thread's current window. */
  requestMetadata(place: Omit<RequestPlace, 'window'>): TurnRequestMetadata;
}

/** A claimed turn with what was set up for it. */
interface WiredTurn {
  readonly active: ActiveTurn;
  readonly input: readonly UserInput[];
  readonly options: RunTurnOptions;
  readonly config: Config;
  readonly model: ModelInfo;
  readonly checkpoints: TurnCheckpoints;
  readonly environments: TurnEnvironments;
  readonly router: ToolRouter;
  readonly hookRunner: TurnHookRunner;
  readonly lifecycle: ReturnType<typeof turnLifecycleHooks>;
  /** Read before each request: a compaction moves the turn to the next window. */
  readonly metadata: (compaction?: CompactionTrigger) => TurnRequestMetadata;
  readonly compaction: (phase: 'pre_turn' | 'mid_turn', compactingModel?: ModelInfo) => CompactionRun;
}

/** Runs a thread's model turns, one at a time. */
export class ThreadTurnRunner {
  readonly #parts: TurnRunnerParts;
  /** The model the last turn ran with (unknown after a resume until a turn runs). */
  #lastTurnModel: ModelInfo | undefined;

  constructor(parts: TurnRunnerParts) {
    this.#parts = parts;
  }

  /** Runs one user turn to its end. Refuses while another turn runs. */
  async run(input: readonly UserInput[], options: RunTurnOptions): Promise<TurnOutcome> {
    const { turns } = this.#parts;
    if (options.turnTrigger === undefined) await turns.yieldGoalTurn();
    const active = turns.begin(options.turnId, options.turnTrigger);
    const config = this.#parts.config();
    const model = this.#parts.model();
    const checkpoints = this.#parts.checkpoints.forTurn(active.turnId);
    try {
      const turn = await this.#wire({ active, input, options, config, model, checkpoints });
      const outcome = await runTurn(this.#dependencies(turn), this.#parameters(turn));
      await this.#finishTurn(active);
      await this.#parts.options.recorder.flush();
      this.#parts.goalWork.afterTurn(outcome);
      return outcome;
    } finally {
      await checkpoints.finish();
      await this.#finishTurn(active);
    }
  }

  /** Sets the claimed turn up: its environments, tools, hooks, request metadata and compactions. */
  async #wire(turn: Pick<WiredTurn, 'active' | 'input' | 'options' | 'config' | 'model' | 'checkpoints'>): Promise<WiredTurn> {
    const { active, options, config, model } = turn;
    const { turnId } = active;
    const { options: session, context, tools, hooks } = this.#parts;
    session.extensions.beginTurn(turnId);
    const environments = new TurnEnvironments(active.environments, this.#parts.environments, config, (turnConfig) => context.environmentUpdate(turnConfig));
    const { selection } = environments;
    const router = await tools.router(config, model, selection.usable, selection.ids.length > 1);
    const hookRunner = await hooks.forTurn(config, model.slug);
    const lifecycle = turnLifecycleHooks(hookRunner, { threadId: session.threadId, turnId, signal: active.controller.signal }, (message) => this.#parts.emit({ type: 'warning', message }));
    if (lifecycle.screenSteered !== undefined) active.steered.screenWith(lifecycle.screenSteered);
    const turnStartedAtMs = session.clock.now().getTime();
    const metadata = (compaction?: CompactionTrigger) => this.#parts.requestMetadata({ turnId, config, model, compaction, turnStartedAtMs, extraClientMetadata: options.clientMetadata, turnTrigger: options.turnTrigger });
    const signal = active.controller.signal;
    const compaction = (phase: 'pre_turn' | 'mid_turn', compactingModel: ModelInfo = model): CompactionRun => ({ turnId, signal, config, model: compactingModel, phase, metadata: () => metadata({ trigger: 'auto', phase }), hooks: () => Promise.resolve(hookRunner) });
    return { ...turn, environments, router, hookRunner, lifecycle, metadata, compaction };
  }

  /** What the turn runs with: its tool calls, request fields and hooks. */
  #dependencies(turn: WiredTurn): TurnDependencies {
    const { active, options, config, model, checkpoints, environments, router, lifecycle, compaction } = turn;
    const { options: session, emit } = this.#parts;
    return {
      client: session.client,
      history: this.#parts.history,
      router,
      calls: new TurnToolCalls({ router, ...environments.callOptions, approvals: this.#parts.approvals, emit, newCallId: () => `call_${this.#parts.uuid()}`, hooks: lifecycle.toolCalls, beforeWrite: (environmentId) => checkpoints.beforeWrite(environmentId), elicit: this.#parts.elicit }),
      model,
      request: {
        ...sharedRequestFields(config, session.threadId, turn.metadata().clientMetadata),
        ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
        ...(options.serviceTier === undefined ? {} : { serviceTier: options.serviceTier }),
      },
      emit,
      now: session.clock.monotonicMs,
      written: () => session.recorder.written(),
      beforeEnd: () => checkpoints.finish(),
      onOffered: (item) => this.#parts.offeredTools.record(item),
      // Before sampling: compaction when a response filled the window, the budgets' reminders,
      // the thread's hooks, then steered input, just before the request. After a response:
      // token accounting first, so budgets and compaction see its usage.
      hooks: combineTurnHooks(
        {
          afterResponse: [this.#parts.tokens],
          beforeSampling: [this.#parts.compaction.midTurnHook(compaction('mid_turn')), environments, worldStateStep({ extensions: session.extensions, recorder: session.recorder, threadId: session.threadId, cwd: config.cwd })],
        },
        this.#parts.budgets.hooks,
        session.hooks ?? {},
        { beforeSampling: [this.#parts.injected, active.steered], responseGates: [this.#parts.goalWork.accounting] },
        lifecycle.turnHooks,
      ),
    };
  }

  /** The turn's id, signal and request metadata, and how it opens. */
  #parameters(turn: WiredTurn): TurnParameters {
    const { active, input, options } = turn;
    const { turnId } = active;
    const signal = active.controller.signal;
    return {
      turnId,
      // A compaction due before the turn runs before its context and input are recorded, so the
      // new prompt follows the summary.
      open: () => openTurn({ turnId, signal, input, inputItems: options.inputItems }, this.#openingSteps(turn)),
      signal,
      requestMetadata: () => turn.metadata(),
    };
  }

  /** The session's parts the turn's opening uses (read as the turn opens: the thread's opening event is taken then). */
  #openingSteps(turn: WiredTurn): TurnOpeningSteps {
    const { active, input, options, config, model, router, hookRunner, compaction } = turn;
    const { turnId } = active;
    const { userMessage } = options;
    const threadCompaction = this.#parts.compaction;
    return {
      hooks: hookRunner,
      opening: this.#parts.hooks.takeOpening(),
      onPromptAccepted: options.onPromptAccepted,
      compactIfDue: async () => {
        // The window is measured against this turn's model (a switch to a smaller one can
        // make a compaction due); the model that held the history writes the summary.
        if (threadCompaction.isDue(config, model)) await threadCompaction.compact(compaction('pre_turn', this.#lastTurnModel ?? model));
        this.#lastTurnModel = model;
      },
      assemble: () => this.#parts.context.assemble(config, model, turnId, input),
      recordOffered: () => this.#parts.offeredTools.record(router.additionalTools),
      recordUserMessage: userMessage === undefined ? undefined : () => this.#parts.options.recorder.recordUserMessage(turnId, userMessage, input),
    };
  }

  /**
   * Ends a model turn (again, harmlessly, once ended): input steered in that no request carried is
   * kept for the next turn, past the same UserPromptSubmit hooks, then the thread is free.
   */
  async #finishTurn(active: ActiveTurn): Promise<void> {
    const leftover = await active.steered.closeScreened();
    if (leftover.length > 0) this.#parts.history.record(leftover, active.turnId);
    this.#parts.injected.recordWaiting();
    this.#parts.turns.end(active);
  }
}
