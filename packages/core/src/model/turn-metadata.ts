// The request headers and `client_metadata` that identify a turn to the provider, named as Codex
// 0.171.0 names them. The turn metadata is built from the session alone: metadata a client adds
// travels in the body and can never replace it (so `thread_source` cannot be spoofed).

/** What identifies one sampling request. */
export interface TurnIdentity {
  readonly sessionId: string;
  readonly threadId: string;
  readonly turnId: string;
  /** The turn a chain of turns started from (itself for a user turn). */
  readonly rootTurnId: string;
  /** Which context window of the thread (0 until the first compaction). */
  readonly windowNumber: number;
  /** The window's UUIDv7 (`context_window_id`); a new one after each compaction. */
  readonly contextWindowId?: string;
  /** Set for the request that summarises the window (`request_kind: "compaction"`); absent for a turn's requests. */
  readonly compaction?: CompactionTrigger;
  readonly threadSource: string;
  /** Why the turn runs when no one asked for it (Codex's `turn_trigger`, e.g. `goal`). */
  readonly turnTrigger?: string | undefined;
  readonly sandboxMode: string;
  readonly model: string;
  readonly reasoningEffort: string | undefined;
  readonly turnStartedAtMs: number;
  /** Names the client (`originator` header), e.g. `skein_exec` or the app-server client's name. */
  readonly originator: string;
  readonly userAgent: string;
  /** Extra client metadata (app-server `responsesapiClientMetadata`); ours wins on conflicts. */
  readonly extraClientMetadata?: Readonly<Record<string, string>>;
  /** The experimental (beta) features that are on, for `x-codex-beta-features`. */
  readonly betaFeatures?: readonly string[];
  /** The thread's agent path (`/root` for a thread that is no one's sub-agent). */
  readonly agentName?: string;
  /** For a sub-agent: the thread and turn that spawned it. */
  readonly spawnedBy?: { readonly threadId: string; readonly turnId: string | undefined };
}

/** Why and where a compaction runs, as Codex reports it in the turn metadata's `compaction` object. */
export interface CompactionTrigger {
  readonly trigger: 'auto' | 'manual';
  /** `pre_turn` (before a turn's first request), `mid_turn` (between two samplings), `standalone_turn` (thread/compact/start). */
  readonly phase: 'pre_turn' | 'mid_turn' | 'standalone_turn';
}

/** Header and body metadata for one request. */
export interface TurnRequestMetadata {
  readonly headers: Readonly<Record<string, string>>;
  readonly clientMetadata: Readonly<Record<string, string>>;
}

/** Builds the headers and `client_metadata` for a turn's sampling requests. */
export function turnRequestMetadata(identity: TurnIdentity): TurnRequestMetadata {
  const windowId = `${identity.threadId}:${identity.windowNumber}`;
  const turnMetadata = JSON.stringify({
    session_id: identity.sessionId,
    thread_id: identity.threadId,
    agent_name: identity.agentName ?? '/root',
    turn_id: identity.turnId,
    window_id: windowId,
    window_number: identity.windowNumber,
    ...(identity.contextWindowId === undefined ? {} : { context_window_id: identity.contextWindowId }),
    request_kind: identity.compaction === undefined ? 'turn' : 'compaction',
    ...(identity.spawnedBy === undefined ? {} : { parent_thread_id: identity.spawnedBy.threadId, ...(identity.spawnedBy.turnId === undefined ? {} : { parent_turn_id: identity.spawnedBy.turnId }) }),
    root_turn_id: identity.rootTurnId,
    ...(identity.spawnedBy === undefined ? {} : { subagent_kind: 'thread_spawn' }),
    thread_source: identity.threadSource,
    ...(identity.turnTrigger === undefined ? {} : { turn_trigger: identity.turnTrigger }),
    sandbox_mode: identity.sandboxMode,
    turn_started_at_unix_ms: identity.turnStartedAtMs,
    // A compaction request names why it runs instead of the model settings (as Codex sends it).
    ...(identity.compaction === undefined
      ? { model: identity.model, reasoning_effort: identity.reasoningEffort ?? null }
      : {
          compaction: {
            trigger: identity.compaction.trigger,
            reason: identity.compaction.trigger === 'manual' ? 'user_requested' : 'context_limit',
            implementation: 'responses',
            phase: identity.compaction.phase,
            strategy: 'memento',
          },
        }),
  });
  return {
    headers: {
      originator: identity.originator,
      'user-agent': identity.userAgent,
      'session-id': identity.sessionId,
      'thread-id': identity.threadId,
      'x-client-request-id': identity.threadId,
      'x-codex-window-id': windowId,
      ...betaFeaturesHeader(identity.betaFeatures ?? []),
      'x-codex-turn-metadata': turnMetadata,
      // A sub-agent's requests name the thread that spawned it, as Codex's do.
      ...(identity.spawnedBy === undefined ? {} : { 'x-codex-parent-thread-id': identity.spawnedBy.threadId, 'x-openai-subagent': 'collab_spawn' }),
    },
    clientMetadata: {
      ...identity.extraClientMetadata,
      'x-codex-turn-metadata': turnMetadata,
      turn_id: identity.turnId,
      root_turn_id: identity.rootTurnId,
      session_id: identity.sessionId,
      thread_id: identity.threadId,
      'x-codex-window-id': windowId,
    },
  };
}

/**
 * `x-codex-beta-features`: the enabled experimental features, sorted and comma-joined, as Codex sends
 * them; no header when none is on. Codex also always lists `remote_compaction_v2`, which tells the
 * provider the client takes its remote compaction; Skein does not, so it does not claim it.
 */
function betaFeaturesHeader(features: readonly string[]): Record<string, string> {
  return features.length === 0 ? {} : { 'x-codex-beta-features': [...features].sort().join(',') };
}
