// The request headers and `client_metadata` that identify a turn to the provider, named and ordered
// as Codex 0.171.0 sends them (probed). The turn metadata is built from the session alone: metadata
// a client adds travels in the body and can never replace it (so `thread_source` cannot be spoofed).

/** How the thread's history came to be for this process (Codex's `history_initialization`). */
export type HistoryInitialization = 'new' | 'cold_resume' | 'cold_fork' | 'warm_fork';

/** What identifies one sampling request. */
export interface TurnIdentity {
  /** The machine's installation id (`<home>/installation_id`), when the host read one. */
  readonly installationId?: string | undefined;
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
  readonly historyInitialization?: HistoryInitialization | undefined;
  /** Who started the thread; absent for an app-server thread whose client named no source, as in Codex. */
  readonly threadSource?: string | undefined;
  /** What started the turn (Codex's `turn_trigger`: `exec` for `exec`'s turns, `goal` for a goal's continuation; absent for an app-server client's). */
  readonly turnTrigger?: string | undefined;
  readonly sandboxMode: string;
  /** The platform sandbox the thread's commands run in (`none` with full access): Codex's metric tag. */
  readonly sandbox?: SandboxTag | undefined;
  readonly model: string;
  readonly reasoningEffort: string | undefined;
  readonly turnStartedAtMs: number;
  /** Names the client (`originator` header), e.g. `skein_exec` or the app-server client's name. */
  readonly originator: string;
  readonly userAgent: string;
  /**
   * The client's keys (app-server `responsesapiClientMetadata`), added to the turn metadata after
   * Codex's own and before the model's, as Codex adds them; a key Codex sets itself keeps its value.
   */
  readonly extraClientMetadata?: Readonly<Record<string, string>>;
  /** The experimental (beta) features that are on, for `x-codex-beta-features`. */
  readonly betaFeatures?: readonly string[];
  /** The model takes Codex's "responses lite" requests (`x-openai-internal-codex-responses-lite: true`). */
  readonly responsesLite?: boolean | undefined;
  /** The thread's agent path (`/root` for a thread that is no one's sub-agent). */
  readonly agentName?: string;
  /** For a sub-agent: the thread and turn that spawned it. */
  readonly spawnedBy?: { readonly threadId: string; readonly turnId: string | undefined };
}

/** Codex's names for the platform sandboxes. */
export type SandboxTag = 'none' | 'seatbelt' | 'seccomp' | 'windows_sandbox';

/** The sandbox a platform's commands run in under `sandboxMode`. */
export function sandboxTag(sandboxMode: string, platform: NodeJS.Platform): SandboxTag {
  if (sandboxMode === 'danger-full-access') return 'none';
  switch (platform) {
    case 'linux':
      return 'seccomp';
    case 'darwin':
      return 'seatbelt';
    case 'win32':
      return 'windows_sandbox';
    default:
      return 'none';
  }
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
  const turnMetadata = headerJson({
    ...(identity.installationId === undefined ? {} : { installation_id: identity.installationId }),
    session_id: identity.sessionId,
    thread_id: identity.threadId,
    agent_name: identity.agentName ?? '/root',
    turn_id: identity.turnId,
    window_id: windowId,
    window_number: identity.windowNumber,
    ...(identity.contextWindowId === undefined ? {} : { context_window_id: identity.contextWindowId }),
    request_kind: identity.compaction === undefined ? 'turn' : 'compaction',
    history_initialization: identity.historyInitialization ?? 'new',
    ...(identity.spawnedBy === undefined ? {} : { parent_thread_id: identity.spawnedBy.threadId, ...(identity.spawnedBy.turnId === undefined ? {} : { parent_turn_id: identity.spawnedBy.turnId }) }),
    root_turn_id: identity.rootTurnId,
    ...(identity.spawnedBy === undefined ? {} : { subagent_kind: 'thread_spawn' }),
    ...(identity.threadSource === undefined ? {} : { thread_source: identity.threadSource }),
    ...(identity.turnTrigger === undefined ? {} : { turn_trigger: identity.turnTrigger }),
    sandbox: identity.sandbox ?? 'none',
    sandbox_mode: identity.sandboxMode,
    // Skein has no automatic approval reviewer and no Node REPL tool, and sends no analytics.
    auto_review_enabled: false,
    node_repl_auto_review_required: false,
    node_repl_disabled: false,
    turn_started_at_unix_ms: identity.turnStartedAtMs,
    analytics_enabled: false,
    ...clientKeys(identity.extraClientMetadata),
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
    // Codex's order; the client sends accept, content-type and authorization before the last two.
    headers: {
      'x-codex-beta-features': betaFeatures(identity.betaFeatures ?? []),
      'x-codex-window-id': windowId,
      'x-codex-turn-metadata': turnMetadata,
      ...(identity.responsesLite === true ? { 'x-openai-internal-codex-responses-lite': 'true' } : {}),
      // A sub-agent's requests name the thread that spawned it, as Codex's do.
      ...(identity.spawnedBy === undefined ? {} : { 'x-codex-parent-thread-id': identity.spawnedBy.threadId, 'x-openai-subagent': 'collab_spawn' }),
      'x-client-request-id': identity.threadId,
      'session-id': identity.sessionId,
      'thread-id': identity.threadId,
      originator: identity.originator,
      'user-agent': identity.userAgent,
    },
    clientMetadata: {
      'x-codex-turn-metadata': turnMetadata,
      turn_id: identity.turnId,
      root_turn_id: identity.rootTurnId,
      session_id: identity.sessionId,
      thread_id: identity.threadId,
      'x-codex-window-id': windowId,
      ...(identity.installationId === undefined ? {} : { 'x-codex-installation-id': identity.installationId }),
    },
  };
}

/**
 * `x-codex-beta-features`: the enabled experimental features and `remote_compaction_v2`, sorted and
 * comma-joined, as Codex sends them. Codex always lists `remote_compaction_v2`: it says the client
 * takes a `compaction` item in a response and sends it back in later input, which Skein's history does.
 */
function betaFeatures(features: readonly string[]): string {
  return [...new Set([REMOTE_COMPACTION_V2, ...features])].sort().join(',');
}

const REMOTE_COMPACTION_V2 = 'remote_compaction_v2';

/** The keys turn metadata holds whatever a client sends (its own, and the model's that follow them). */
const RESERVED_TURN_METADATA_KEYS = new Set([
  'installation_id', 'session_id', 'thread_id', 'agent_name', 'turn_id', 'window_id', 'window_number', 'context_window_id', 'request_kind',
  'history_initialization', 'parent_thread_id', 'parent_turn_id', 'root_turn_id', 'subagent_kind', 'thread_source', 'turn_trigger', 'sandbox',
  'sandbox_mode', 'auto_review_enabled', 'node_repl_auto_review_required', 'node_repl_disabled', 'turn_started_at_unix_ms', 'analytics_enabled',
  'model', 'reasoning_effort', 'compaction',
]);

/** The most a client's metadata adds to the turn metadata header (keys and values, in characters). */
const MAX_CLIENT_METADATA_CHARS = 8_192;

/** A client's metadata without the keys Codex reserves (a client cannot rename the thread's source, say), nor its headers' names. */
function clientKeys(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  let size = 0;
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (RESERVED_TURN_METADATA_KEYS.has(key) || key.startsWith('x-codex-')) continue;
    // Past the cap the rest is dropped: a header has to stay sendable.
    size += key.length + value.length;
    if (size > MAX_CLIENT_METADATA_CHARS) break;
    kept[key] = value;
  }
  return kept;
}

/** JSON with every character past ASCII escaped, so it can travel as a header value (a client's metadata may hold any text). */
function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
