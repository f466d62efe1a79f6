// Runs installed extensions' contributors for one thread. A contributor that throws is reported as a
// warning and skipped — an extension can never fail a turn.
import {
  MemoryExtensionData,
  type ExtensionData,
  type ExtensionRegistry,
  type ExtensionScopes,
  type JsonValue,
  type ThreadInit,
  type ToolEnvironment,
  type ToolHandler,
} from '@skein/extension-api';
import type { ContextFragment, ContextFragmentDefinition, ResponseItem, UserInput } from '@skein/protocol';
import type { WorldStateRecord } from '../session/thread-recorder.js';
import { declaredFragments } from './declared-fragments.js';
import { ThreadExtensionState } from './thread-extension-state.js';

/** A change in one world-state section, rendered for the model. */
export interface WorldStateChange {
  readonly sectionId: string;
  readonly text: string;
}

/** What a host knows of its thread: the durable stores and the host's initialization data. */
export interface ExtensionHostThread {
  /** The thread stores; in memory only (recording nowhere) when absent. */
  readonly state?: ThreadExtensionState;
  /** The host's initialization data; none when absent. */
  readonly init?: ThreadInit;
}

const NO_INIT: ThreadInit = { selectedCapabilityRoots: [] };

/** The extensions of one thread, with their data stores. */
export class ExtensionHost {
  readonly #registry: ExtensionRegistry;
  readonly #warn: (message: string) => void;
  readonly #sessionStores: Map<string, ExtensionData>;
  readonly #threadState: ThreadExtensionState;
  readonly #threadStores = new Map<string, ExtensionScopes['thread']>();
  readonly #init: ThreadInit;
  #turnStores = new Map<string, ExtensionData>();
  #turnId: string | undefined;
  #environments: () => readonly ToolEnvironment[] = () => [];
  /** Each section's last recorded snapshot, with its JSON once compared (a snapshot is compared every turn). */
  readonly #snapshots = new Map<string, { readonly snapshot: unknown; json?: string }>();
  readonly #warned = new Set<string>();

  /** `sessionStores` is shared by the threads of one session (a thread and its sub-agents). */
  constructor(registry: ExtensionRegistry, warn: (message: string) => void, sessionStores: Map<string, ExtensionData> = new Map(), thread: ExtensionHostThread = {}) {
    this.#registry = registry;
    this.#warn = warn;
    this.#sessionStores = sessionStores;
    this.#threadState = thread.state ?? new ThreadExtensionState();
    this.#init = thread.init ?? NO_INIT;
  }

  /** Where contributors learn the thread's attached environments (the session owns them). */
  useEnvironments(environments: () => readonly ToolEnvironment[]): void {
    this.#environments = environments;
  }

  /** Starts a turn's scope: turn stores are fresh for every turn. */
  beginTurn(turnId: string): void {
    this.#turnId = turnId;
    this.#turnStores = new Map();
  }

  /** Forgets the last snapshots, so every section is rendered in full next time (after a compaction dropped what the model was told). */
  resetWorldState(): void {
    this.#snapshots.clear();
  }

  /** The context fragments the thread's extensions declare, with the built-ins (what tells context from user prompts). */
  get contextFragments(): readonly ContextFragmentDefinition[] {
    return this.#registry.contextFragments;
  }

  /** The last recorded snapshots, e.g. restored from a rollout on resume. */
  restoreWorldState(records: readonly WorldStateRecord[]): void {
    for (const record of records) this.#snapshots.set(record.sectionId, { snapshot: record.snapshot });
  }

  async threadFragments(threadId: string, cwd: string): Promise<ContextFragment[]> {
    return this.#collect(this.#registry.context, 'context', async (contributor, scopes, extensionId) =>
      this.#declared(extensionId, (await contributor.threadFragments?.({ ...scopes, ...this.#thread(extensionId, threadId, cwd) })) ?? []),
    );
  }

  async turnFragments(threadId: string, cwd: string, turnId: string): Promise<ContextFragment[]> {
    return this.#collect(this.#registry.context, 'context', async (contributor, scopes, extensionId) =>
      this.#declared(extensionId, (await contributor.turnFragments?.({ ...scopes, ...this.#thread(extensionId, threadId, cwd), turnId })) ?? []),
    );
  }

  async turnInput(threadId: string, cwd: string, turnId: string, input: readonly UserInput[]): Promise<ResponseItem[]> {
    return this.#collect(this.#registry.turnInput, 'turn input', (contributor, scopes, extensionId) => contributor.contributeTurnInput({ ...scopes, ...this.#thread(extensionId, threadId, cwd), turnId, input }));
  }

  /**
   * Each extension's tools, in installation order; the tool plan checks them. `complete` is false
   * when a contributor failed (it was reported), so the caller can ask again later.
   */
  async toolContributions(threadId: string, cwd: string): Promise<{ readonly contributions: { readonly extensionId: string; readonly tools: readonly ToolHandler[] }[]; readonly complete: boolean }> {
    const contributions: { readonly extensionId: string; readonly tools: readonly ToolHandler[] }[] = [];
    let complete = true;
    for (const { extensionId, contributor } of this.#registry.tools) {
      try {
        const tools: unknown = await contributor.tools({ ...this.#scopes(extensionId), ...this.#thread(extensionId, threadId, cwd) });
        if (!Array.isArray(tools)) throw new Error('tools() must return a list of tools');
        contributions.push({ extensionId, tools: tools as readonly ToolHandler[] });
      } catch (error) {
        complete = false;
        this.#warn(`extension '${extensionId}' failed in tools: ${(error as Error).message}`);
      }
    }
    return { contributions, complete };
  }

  async lifecycle(hook: 'onThreadStart' | 'onThreadResume' | 'onThreadStop', threadId: string, cwd: string): Promise<void> {
    await this.#collect(this.#registry.lifecycle, hook, async (contributor, scopes, extensionId) => {
      await contributor[hook]?.({ ...scopes, ...this.#thread(extensionId, threadId, cwd) });
      return [];
    });
  }

  /**
   * Snapshots every section and renders what changed since the last recorded snapshot. Returns the
   * changes for the model and the snapshots to record (only sections that changed).
   */
  async worldState(threadId: string, cwd: string, turnId: string): Promise<{ changes: WorldStateChange[]; records: WorldStateRecord[] }> {
    const changes: WorldStateChange[] = [];
    const records: WorldStateRecord[] = [];
    for (const { extensionId, contributor } of this.#registry.worldState) {
      try {
        const current = await contributor.snapshot({ ...this.#scopes(extensionId), ...this.#thread(extensionId, threadId, cwd), turnId });
        const previous = this.#snapshots.get(contributor.sectionId);
        const json = JSON.stringify(current);
        if (previous !== undefined && (previous.json ??= JSON.stringify(previous.snapshot)) === json) continue;
        const text = contributor.renderChange(previous?.snapshot as JsonValue | undefined, current);
        this.#snapshots.set(contributor.sectionId, { snapshot: current, json });
        records.push({ sectionId: contributor.sectionId, snapshot: current });
        if (text !== undefined && text !== '') changes.push({ sectionId: contributor.sectionId, text });
      } catch (error) {
        this.#warn(`extension '${extensionId}' world-state section '${contributor.sectionId}' failed: ${(error as Error).message}`);
      }
    }
    return { changes, records };
  }

  async #collect<C, T>(
    contributions: readonly { extensionId: string; contributor: C }[],
    what: string,
    run: (contributor: C, scopes: ExtensionScopes, extensionId: string) => Promise<readonly T[]>,
  ): Promise<T[]> {
    const results: T[] = [];
    for (const { extensionId, contributor } of contributions) {
      try {
        results.push(...(await run(contributor, this.#scopes(extensionId), extensionId)));
      } catch (error) {
        this.#warn(`extension '${extensionId}' failed in ${what}: ${(error as Error).message}`);
      }
    }
    return results;
  }

  /** What every request says about the thread. */
  #thread(extensionId: string, threadId: string, cwd: string): { threadId: string; cwd: string; init: ThreadInit; environments: readonly ToolEnvironment[]; warn: (message: string) => void } {
    return { threadId, cwd, init: this.#init, environments: this.#environments(), warn: (message) => this.#warnOnce(`extension '${extensionId}': ${message}`) };
  }

  /** An extension's warning, once per thread: contributors run every turn and would repeat it. */
  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#warn(message);
  }

  #declared(extensionId: string, fragments: readonly unknown[]): ContextFragment[] {
    const extension = this.#registry.extensions.find((candidate) => candidate.id === extensionId);
    return declaredFragments(extension, Array.isArray(fragments) ? fragments : [fragments], this.#warn);
  }

  #threadStore(extensionId: string): ExtensionScopes['thread'] {
    let existing = this.#threadStores.get(extensionId);
    if (existing === undefined) this.#threadStores.set(extensionId, (existing = this.#threadState.storeFor(extensionId)));
    return existing;
  }

  #scopes(extensionId: string): ExtensionScopes {
    const store = (stores: Map<string, ExtensionData>) => {
      let existing = stores.get(extensionId);
      if (existing === undefined) stores.set(extensionId, (existing = new MemoryExtensionData()));
      return existing;
    };
    return {
      session: store(this.#sessionStores),
      thread: this.#threadStore(extensionId),
      turn: this.#turnId === undefined ? new MemoryExtensionData() : store(this.#turnStores),
    };
  }
}
