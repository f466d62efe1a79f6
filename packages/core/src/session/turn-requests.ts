// What every request a thread sends carries besides its input and tools: the sampling fields its
// config chooses, and the headers and client metadata naming the thread, turn and context window.
import type { Config } from '@skein/config';
import type { AgentParent } from '../agents/agent-tree.js';
import type { ContextWindow } from '../compaction/context-window.js';
import type { ModelInfo } from '../model/model-catalog.js';
import type { SamplingRequest } from '../model/responses-request.js';
import { sandboxTag, turnRequestMetadata, type CompactionTrigger, type HistoryInitialization, type TurnRequestMetadata } from '../model/turn-metadata.js';

/** Who the requests come from, for their metadata. */
export interface RequestSender {
  readonly installationId: string | undefined;
  readonly sessionId: string;
  readonly threadId: string;
  readonly historyInitialization: HistoryInitialization | undefined;
  readonly threadSource: string | undefined;
  /** What a turn no one but the client started is called (`exec` for `skein exec`'s turns). */
  readonly clientTurnTrigger: string | undefined;
  readonly originator: string | undefined;
  readonly userAgent: string | undefined;
  /** The thread's agent path and, for a sub-agent, who spawned it (see agent-tree.ts). */
  readonly agent?: AgentPlace | undefined;
}

/** A thread's place in its agent tree. */
export interface AgentPlace {
  readonly path: string;
  readonly parent?: AgentParent | undefined;
}

/** One request's place: its turn, settings and window, and what kind of request it is. */
export interface RequestPlace {
  readonly turnId: string;
  readonly config: Config;
  readonly model: ModelInfo;
  readonly window: ContextWindow;
  readonly compaction: CompactionTrigger | undefined;
  readonly turnStartedAtMs: number;
  readonly extraClientMetadata: Readonly<Record<string, string>> | undefined;
  /** Why the turn runs when no one asked for it (`goal`: a goal's continuation). */
  readonly turnTrigger?: string | undefined;
}

/** The request fields every request of a turn shares (compaction requests too). */
export function sharedRequestFields(config: Config, threadId: string, clientMetadata: Readonly<Record<string, string>>): Omit<SamplingRequest, 'model' | 'input' | 'tools'> {
  return {
    reasoningEffort: config.modelReasoningEffort,
    reasoningSummary: config.modelReasoningSummary,
    verbosity: config.modelVerbosity,
    promptCacheKey: threadId,
    clientMetadata,
    stripItemMetadata: config.modelProvider.id !== 'openai',
  };
}

/** The headers and client metadata of one request. */
export function requestMetadata(sender: RequestSender, place: RequestPlace): TurnRequestMetadata {
  const { config, model } = place;
  return turnRequestMetadata({
    installationId: sender.installationId,
    sessionId: sender.sessionId,
    threadId: sender.threadId,
    turnId: place.turnId,
    // A sub-agent's turns belong to the root turn that spawned its tree.
    rootTurnId: sender.agent?.parent?.rootTurnId ?? place.turnId,
    windowNumber: place.window.windowNumber,
    contextWindowId: place.window.windowId,
    ...(place.compaction === undefined ? {} : { compaction: place.compaction }),
    historyInitialization: sender.historyInitialization,
    threadSource: sender.threadSource,
    sandboxMode: config.sandboxMode,
    sandbox: sandboxTag(config.sandboxMode, process.platform),
    model: model.slug,
    responsesLite: model.useResponsesLite,
    reasoningEffort: config.modelReasoningEffort ?? model.defaultReasoningEffort,
    turnStartedAtMs: place.turnStartedAtMs,
    originator: sender.originator ?? 'skein',
    userAgent: sender.userAgent ?? 'skein',
    ...(place.extraClientMetadata === undefined ? {} : { extraClientMetadata: place.extraClientMetadata }),
    turnTrigger: place.turnTrigger ?? sender.clientTurnTrigger,
    ...(sender.agent === undefined ? {} : { agentName: sender.agent.path }),
    ...(sender.agent?.parent === undefined ? {} : { spawnedBy: { threadId: sender.agent.parent.threadId, turnId: sender.agent.parent.turnId } }),
    betaFeatures: enabledBetaFeatures(config.features),
  });
}

/**
 * The enabled beta features' keys, by feature set: every request names them, and a feature set is
 * immutable (and shared by every thread of one config), so each is listed once.
 */
const betaFeaturesOf = new WeakMap<Config['features'], readonly string[]>();

function enabledBetaFeatures(features: Config['features']): readonly string[] {
  let keys = betaFeaturesOf.get(features);
  if (keys === undefined) {
    keys = Object.freeze(features.list().filter((status) => status.enabled && status.spec.stage === 'beta').map((status) => status.spec.key));
    betaFeaturesOf.set(features, keys);
  }
  return keys;
}
