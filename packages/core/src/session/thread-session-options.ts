import type { CheckpointStore } from '../checkpoints/thread-checkpoints.js';
import type { TurnRecord } from '@skein/rollout';
// What a thread session is built from (every capability injected), and the base instructions it runs with.
import type { LifecycleHookSettings } from './thread-hooks.js';
import type { RolloutBudgetLedger } from '../budgets/rollout-budget-ledger.js';
import type { Config } from '@skein/config';
import type { ResponseItem, UuidV7Source } from '@skein/protocol';
import { DEFAULT_BASE_INSTRUCTIONS } from '../context/base-instructions.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnHooks } from '../turn/turn-hooks.js';
import type { ClientRequests } from './client-requests.js';
import type { SelectedEnvironment } from './thread-environment.js';
import type { ThreadRecorder } from './thread-recorder.js';
import type { AgentPlace } from './turn-requests.js';
import type { HistoryInitialization } from '../model/turn-metadata.js';
import type { NamespaceToolHandler } from '@skein/extension-api';
import type { HostFacts } from './turn-context-assembly.js';
import type { WorkspaceReader } from './workspace-reader.js';
import type { CollaborationToolsBinding } from '../agents/agent-registry.js';

/** The base instructions a thread runs with: the thread's own (its parameters, or its rollout on resume), else config's, else Skein's. */
export function baseInstructionsFor(config: Pick<Config, 'baseInstructions'>, threadInstructions: string | undefined): string {
  return threadInstructions ?? config.baseInstructions ?? DEFAULT_BASE_INSTRUCTIONS;
}

/** Capabilities a session runs with; all injected. */
export interface ThreadSessionOptions {
  readonly threadId: string;
  readonly config: Config;
  readonly client: ResponsesClient;
  readonly reader: WorkspaceReader;
  readonly recorder: ThreadRecorder;
  readonly extensions: ExtensionHost;
  readonly host: HostFacts;
  readonly clock: { readonly now: () => Date; readonly monotonicMs: () => number };
  readonly onEvent: (event: CoreEvent) => void;
  readonly uuid?: UuidV7Source;
  /** Replaces the base instructions (thread parameters); else config, else Skein's. */
  readonly baseInstructions?: string;
  /** The root thread of this thread's tree (its own id for a root thread). */
  readonly sessionId?: string;
  /** The rollout budget's ledger, shared by every thread of the session (the host's registry keeps it). */
  readonly rolloutLedger?: RolloutBudgetLedger | undefined;
  /** Names the client in request headers. */
  readonly originator?: string;
  readonly userAgent?: string;
  /** Who started the thread (`user`, `subagent`, …), sent in the turn metadata; absent when no one said. */
  readonly threadSource?: string | undefined;
  /** The machine's installation id, sent in the turn metadata. */
  readonly installationId?: string | undefined;
  /** How the thread's history was loaded (new, resumed, forked), sent in the turn metadata. */
  readonly historyInitialization?: HistoryInitialization | undefined;
  /** The `turn_trigger` of turns the client starts (`exec` for `skein exec`); absent for an app-server client's. */
  readonly clientTurnTrigger?: string | undefined;
  /**
   * Where the thread's tools act: one environment, or every attached one with the primary first.
   * With one, the model is offered `exec_command`, `write_stdin` and `apply_patch` (Codex's order),
   * confined by the thread's sandbox settings.
   */
  readonly environment?: SelectedEnvironment | readonly SelectedEnvironment[];
  /** Asks the client for approvals and answers; without it every question is declined. */
  readonly clientRequests?: ClientRequests | undefined;
  /** Hooks every turn of this thread runs: before-sampling ones before steered input, after-response ones after token accounting. */
  readonly hooks?: Partial<TurnHooks> | undefined;
  /** The user's and the extensions' lifecycle hooks (none without it). */
  readonly lifecycleHooks?: LifecycleHookSettings | undefined;
  /** The thread's place in its agent tree (its path, who spawned it), for request metadata. */
  readonly agent?: AgentPlace | undefined;
  /** For a thread of an agent tree: the message that tells it its role (its delegation mode follows it). */
  readonly agentRole?: ((config: Config) => ResponseItem) | undefined;
  /** Called when the running turn is interrupted (an agent's interrupt reaches the sub-agents it runs). */
  readonly onInterrupt?: (() => void) | undefined;
  /** Whether an active goal keeps the thread working with turns of its own (an app-server thread; not a one-shot exec). */
  readonly continueGoals?: boolean | undefined;
  /** Where MCP servers read `env_vars` and tokens from (none when not given). */
  readonly mcpEnv?: Readonly<Record<string, string | undefined>> | undefined;
  /** The sub-agent tools this thread offers (`collaboration`, or v1's `multi_agent_v1`), bound to the thread. */
  readonly collaboration?: ((binding: CollaborationToolsBinding) => NamespaceToolHandler) | undefined;
  /** The thread's durable store for checkpoint records (absent: checkpoints are kept in memory only). */
  readonly checkpointStore?: CheckpointStore | undefined;
  /** The thread's surviving recorded turns, read from its file; absent for an ephemeral thread. */
  readonly recordedTurns?: (() => Promise<readonly TurnRecord[]>) | undefined;
}
