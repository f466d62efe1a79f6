// What a thread registry is made with and what it takes per thread: the host's capabilities, the
// options of start, resume and fork, the registry's events, and its refusals.
import type { Config } from '@skein/config';
import type { ExtensionRegistry, ThreadInit } from '@skein/extension-api';
import type { UuidV7Source } from '@skein/protocol';
import type { SessionSource, ThreadStore } from '@skein/rollout';
import type { ModelHttpPost } from './model-client/http-post.js';
import type { ClientRequests } from './session/client-requests.js';
import type { SelectedEnvironment, ThreadEnvironment } from './session/thread-session.js';
import type { WorkspaceReader } from './session/workspace-reader.js';
import type { CoreEvent } from './turn/core-event.js';
import type { TurnHooks } from './turn/turn-hooks.js';

/** What the host (cli, app-server) provides once, for the life of the process. */
export interface ThreadManagerOptions {
  readonly store: ThreadStore;
  /**
   * The settings threads run with unless they bring their own; a host whose threads always bring
   * theirs (the app-server) may leave it out.
   */
  readonly config?: Config | undefined;
  readonly extensions: ExtensionRegistry;
  /** Whether a thread's active goal keeps it working with turns of its own (the app-server's threads; not `skein exec`'s one turn). */
  readonly continueGoals?: boolean | undefined;
  /** The environment for provider credentials, and where MCP servers read `env_vars` and tokens. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The API key saved in auth.json (asked at each request, so a sign-in applies at once), for OpenAI's provider when `env` names none. */
  readonly savedApiKey?: (() => string | undefined) | undefined;
  readonly host: { readonly shell: string; readonly timezone: string };
  /** Names the client in rollouts and request headers (`codex_exec`, …) unless a thread names its own. */
  readonly originator: string;
  readonly source: SessionSource;
  readonly cliVersion: string;
  /** Who starts new threads (`thread_source`: `user` for `skein exec`), unless a thread names its own; absent when neither says, as in Codex's app-server. */
  readonly threadSource?: string | undefined;
  /** The `turn_trigger` of turns a client starts (`exec` for `skein exec`); none for an app-server client's, as in Codex. */
  readonly clientTurnTrigger?: string | undefined;
  /** The machine's installation id (`<home>/installation_id`, see installation-id.ts), sent with every request. */
  readonly installationId?: string | undefined;
  /** The `user-agent` of model requests unless a thread names its own; else `<originator>/<cliVersion>`. */
  readonly userAgent?: string | undefined;
  readonly reader?: WorkspaceReader;
  readonly clock?: { readonly now: () => Date; readonly monotonicMs: () => number };
  readonly uuid?: UuidV7Source;
  /** Sends model requests (default: node:http(s)); the global `fetch` fits too. */
  readonly post?: ModelHttpPost;
  /** Where threads' tools act unless a thread names its own; without one the model is offered no built-in tools. */
  readonly environment?: ThreadEnvironment;
  /** `--dangerously-bypass-hook-trust`: run configured lifecycle hooks the user has not trusted. */
  readonly bypassHookTrust?: boolean | undefined;
  /** Hooks for every thread's turns, made per thread (hooks may keep per-thread state). */
  readonly turnHooks?: (thread: { readonly threadId: string }) => Partial<TurnHooks>;
  /** Receives the events of sub-agent threads (multi-agent v2), which no client opened; without it they go nowhere. */
  readonly onSubagentEvent?: (threadId: string, event: CoreEvent) => void;
  /**
   * Where a sub-agent's approval questions go (called before it opens, with its id and its parent's):
   * the host asks its clients under the sub-agent's thread id. Without it they are declined.
   */
  readonly subagentClientRequests?: (threadId: string, parentThreadId: string, place: { readonly path: string; readonly depth: number }) => ClientRequests | undefined;
}

/** Per-thread options. */
export interface OpenThreadOptions {
  readonly onEvent: (event: CoreEvent) => void;
  /** This thread's settings, when the client chose some (cwd, model, sandbox, approvals); else the manager's. */
  readonly config?: Config | undefined;
  /** Where the thread's approval questions and user-input requests go; without it they are declined. */
  readonly clientRequests?: ClientRequests | undefined;
  /** Names the client that opened the thread (an app-server client's name); else the manager's. */
  readonly originator?: string | undefined;
  /** The `user-agent` of this thread's model requests (the app-server client's); else the manager's. */
  readonly userAgent?: string | undefined;
  /** Where this thread's tools act (a list: every attached one, the primary first); `null` for none; else the manager's. */
  readonly environment?: SelectedEnvironment | readonly SelectedEnvironment[] | null | undefined;
  /** This thread's extensions (a host whose threads' configs name different ones); else the manager's. */
  readonly extensions?: ExtensionRegistry | undefined;
  /**
   * The workspace roots the client names for the primary environment (a resume's or fork's
   * `runtimeWorkspaceRoots`); else a resumed thread's own, else the defaults.
   */
  readonly workspaceRoots?: readonly string[] | undefined;
}

/** A change in the set of live threads. */
export interface ThreadRegistryEvent {
  /** `created` by start and fork, `loaded` by resume, `closed` when its handle closed. */
  readonly type: 'created' | 'loaded' | 'closed';
  readonly threadId: string;
}

/** Options of `ThreadManager.start`. */
export interface StartThreadOptions extends OpenThreadOptions {
  /** Persist nothing: no rollout file, no index entry, so the thread cannot be resumed (`exec --ephemeral`). */
  readonly ephemeral?: boolean;
  /**
   * The host's initialization data (`thread/start`'s `selectedCapabilityRoots`): recorded in the
   * thread's header, handed to its extensions now and again after every resume or fork.
   */
  readonly init?: ThreadInit;
  /**
   * The session the thread joins (the root thread's id), recorded as its `session_id`: its threads
   * share one rollout budget. Default: a session of its own.
   */
  readonly sessionId?: string;
  /** Who started this thread (`thread/start`'s `threadSource`); else the manager's. */
  readonly threadSource?: string | undefined;
}

/** Why the registry refused a request. */
export class ThreadManagerError extends Error {
  override readonly name = 'ThreadManagerError';
  constructor(
    readonly code: 'AlreadyLoaded' | 'NoConfig',
    message: string,
  ) {
    super(message);
  }
}
