// Starts, resumes and forks threads on top of @skein/rollout: each loaded thread is a ThreadSession
// recording into its rollout file. Resume continues the same file with the history it reconstructs.
import { findProjectRoot, type Config } from '@skein/config';
import type { ExtensionRegistry } from '@skein/extension-api';
import { newThreadId, randomUuidV7, ThreadId, type UuidV7Source } from '@skein/protocol';
import type { ForkPoint, LoadedThread, RolloutWriter, SessionSource, ThreadListQuery, ThreadPage, ThreadStore } from '@skein/rollout';
import { ExtensionHost } from './extensions/extension-host.js';
import { ResponsesClient } from './model-client/responses-client.js';
import { RolloutThreadRecorder } from './persistence/rollout-recorder.js';
import type { ClientRequests } from './session/client-requests.js';
import type { ThreadRecorder } from './session/thread-recorder.js';
import { baseInstructionsFor, ThreadSession, type ThreadEnvironment } from './session/thread-session.js';
import { localWorkspaceReader, type WorkspaceReader } from './session/workspace-reader.js';
import { NO_TOKENS, RolloutTokenUsage } from './session/thread-token-usage.js';
import type { CoreEvent } from './turn/core-event.js';

/** What the host (cli, app-server) provides once. */
export interface ThreadManagerOptions {
  readonly store: ThreadStore;
  readonly config: Config;
  readonly extensions: ExtensionRegistry;
  /** The environment for provider credentials. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host: { readonly shell: string; readonly timezone: string };
  /** Names the client in rollouts and request headers (`codex_exec`, the app-server client's name, …). */
  readonly originator: string;
  readonly source: SessionSource;
  readonly cliVersion: string;
  /** Who started new threads (`thread_source`); `user` unless the client says otherwise. */
  readonly threadSource?: string;
  readonly reader?: WorkspaceReader;
  readonly clock?: { readonly now: () => Date; readonly monotonicMs: () => number };
  readonly uuid?: UuidV7Source;
  readonly fetch?: typeof fetch;
  /** Where threads' tools act; without one the model is offered no built-in tools. */
  readonly environment?: ThreadEnvironment;
}

/** A loaded thread: its session and the rollout it records into. Close it to release the file. */
export interface ThreadHandle {
  readonly session: ThreadSession;
  /** The rollout file; undefined for an ephemeral thread, which writes none. */
  readonly path: string | undefined;
  close(): Promise<void>;
}

/** Per-thread options. */
export interface OpenThreadOptions {
  readonly onEvent: (event: CoreEvent) => void;
  /** This thread's settings, when the client chose some (cwd, model, sandbox, approvals); else the manager's. */
  readonly config?: Config | undefined;
  /** Where the thread's approval questions and user-input requests go; without it they are declined. */
  readonly clientRequests?: ClientRequests | undefined;
}

/** Options of `ThreadManager.start`. */
export interface StartThreadOptions extends OpenThreadOptions {
  /** Persist nothing: no rollout file, no index entry, so the thread cannot be resumed (`exec --ephemeral`). */
  readonly ephemeral?: boolean;
}

/** The real clock, for hosts that do not inject one. */
// eslint-disable-next-line no-restricted-syntax, no-restricted-properties -- the one place core reads the system clock
const systemClock = { now: () => new Date(), monotonicMs: () => performance.now() };

/** The threads of one home directory. */
export class ThreadManager {
  readonly #options: ThreadManagerOptions;
  readonly #client: ResponsesClient;
  readonly #uuid: UuidV7Source;

  constructor(options: ThreadManagerOptions) {
    this.#options = options;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#client = new ResponsesClient({
      provider: options.config.modelProvider,
      env: options.env,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  /** Starts a new thread with a fresh rollout file (none when `ephemeral`). */
  async start(options: StartThreadOptions): Promise<ThreadHandle> {
    const config = options.config ?? this.#options.config;
    const threadId = newThreadId(this.#uuid);
    if (options.ephemeral === true) return this.#open(threadId, undefined, undefined, options);
    const writer = await this.#options.store.createThread({
      threadId,
      meta: {
        cwd: config.cwd,
        originator: this.#options.originator,
        cli_version: this.#options.cliVersion,
        source: this.#options.source,
        thread_source: this.#options.threadSource ?? 'user',
        model_provider: config.modelProviderId,
        history_mode: 'paginated',
        // As Codex: the instructions live in the header, and a resumed thread keeps them.
        base_instructions: { text: baseInstructionsFor(config, undefined) },
      },
    });
    try {
      return await this.#open(ThreadId.parse(writer.threadId), writer, undefined, options);
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  /** Loads a thread and continues its file; the next turn sends only what changed since its last turn. */
  async resume(threadId: string, options: OpenThreadOptions): Promise<ThreadHandle> {
    // One read of the file, under its writer lock: no other writer can append between reading and continuing it.
    const { writer, loaded } = await this.#options.store.openForResume(threadId);
    try {
      return await this.#open(ThreadId.parse(writer.threadId), writer, loaded, options);
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  /** Copies a thread (whole, or up to a turn) into a new one and loads the copy. */
  async fork(threadId: string, options: OpenThreadOptions & { readonly upTo?: ForkPoint }): Promise<ThreadHandle> {
    const fork = await this.#options.store.forkThread(threadId, {
      threadId: newThreadId(this.#uuid),
      ...(options.upTo === undefined ? {} : { upTo: options.upTo }),
    });
    return this.resume(fork.id, options);
  }

  /** The model client for a thread's settings: the shared one, unless the thread uses another provider. */
  #clientFor(config: Config): ResponsesClient {
    if (config.modelProviderId === this.#options.config.modelProviderId) return this.#client;
    return new ResponsesClient({ provider: config.modelProvider, env: this.#options.env, ...(this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch }) });
  }

  /** Threads, newest first. */
  list(query: ThreadListQuery = {}): Promise<ThreadPage> {
    return this.#options.store.list(query);
  }

  /** A thread's reconstruction, without loading it. */
  read(threadId: string): Promise<LoadedThread> {
    return this.#options.store.loadThread(threadId);
  }

  /** `writer` is undefined for an ephemeral thread, which records nowhere. */
  async #open(threadId: ThreadId, writer: RolloutWriter | undefined, loaded: LoadedThread | undefined, options: OpenThreadOptions): Promise<ThreadHandle> {
    const config = options.config ?? this.#options.config;
    const rollout = writer === undefined ? undefined : new RolloutThreadRecorder(writer);
    const recorder = rollout ?? discardingRecorder;
    const extensions = new ExtensionHost(this.#options.extensions, (message) => options.onEvent({ type: 'warning', message }));
    const session = new ThreadSession({
      threadId,
      config,
      client: this.#clientFor(config),
      reader: this.#options.reader ?? localWorkspaceReader,
      recorder,
      extensions,
      host: { ...this.#options.host, projectRoot: findProjectRoot(config.cwd, config.projectRootMarkers) },
      clock: this.#options.clock ?? systemClock,
      onEvent: options.onEvent,
      clientRequests: options.clientRequests,
      uuid: this.#uuid,
      sessionId: loaded?.meta.session_id ?? threadId,
      ...(loaded?.meta.base_instructions?.text === undefined ? {} : { baseInstructions: loaded.meta.base_instructions.text }),
      originator: this.#options.originator,
      userAgent: `${this.#options.originator}/${this.#options.cliVersion}`,
      threadSource: loaded?.meta.thread_source ?? this.#options.threadSource ?? 'user',
      ...(this.#options.environment === undefined ? {} : { environment: this.#options.environment }),
    });
    if (loaded !== undefined && writer !== undefined) {
      extensions.restoreWorldState(loaded.worldState);
      const baseline = loaded.needsInitialContext ? undefined : loaded.referenceTurnContext;
      session.restore(
        loaded.history,
        baseline === undefined
          ? undefined
          : {
              cwd: baseline.cwd,
              approvalPolicy: baseline.approval_policy ?? undefined,
              sandboxPolicy: baseline.sandbox_policy,
              currentDate: baseline.current_date ?? undefined,
              timezone: baseline.timezone ?? undefined,
            },
        loaded.tokenCount === undefined ? NO_TOKENS : RolloutTokenUsage.parse(loaded.tokenCount.total_token_usage),
      );
      await extensions.lifecycle('onThreadResume', threadId, config.cwd);
    } else {
      await extensions.lifecycle('onThreadStart', threadId, config.cwd);
    }
    // An ephemeral thread has no file; the event's path is empty until the event type allows none.
    options.onEvent({ type: 'sessionConfigured', threadId, model: config.model, cwd: config.cwd, rolloutPath: writer?.path ?? '', resumed: loaded !== undefined });
    // Closing twice (a signal handler and a finally block, say) closes once.
    let closing: Promise<void> | undefined;
    return {
      session,
      path: writer?.path,
      close: () =>
        (closing ??= (async () => {
          await session.close();
          await extensions.lifecycle('onThreadStop', threadId, config.cwd);
          await rollout?.close();
        })()),
    };
  }
}

/**
 * Where an ephemeral thread records: nowhere. Nothing reads a thread's records back while it runs, so
 * keeping them in memory would only grow with the thread.
 */
const discardingRecorder: ThreadRecorder = {
  recordItems: () => undefined,
  recordTurnContext: () => undefined,
  recordWorldState: () => undefined,
  recordEvent: () => undefined,
  flush: () => Promise.resolve(),
};
