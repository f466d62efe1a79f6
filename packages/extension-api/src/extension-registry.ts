// Extensions and the registry the host installs into core: each extension names itself and lists
// what it contributes; the registry groups contributions by kind, in installation order.
import { BUILT_IN_CONTEXT_FRAGMENTS, contextFragmentMarkersCollide, type ContextFragmentDefinition } from '@skein/protocol';
import type { ContextContributor } from './context-contributor.js';
import type { HookContributor } from './hook-contributor.js';
import type { ThreadLifecycleContributor } from './thread-lifecycle-contributor.js';
import type { ToolContributor } from './tool-contributor.js';
import type { TurnInputContributor } from './turn-input-contributor.js';
import type { WorldStateContributor } from './world-state-contributor.js';
import { EXTENSION_API_VERSION } from './api-version.js';

/** An extension: a stable id and any of the contributor kinds. */
export interface Extension {
  /** Lower-case letters, digits, `-` and `_`; names its data stores and its warnings. */
  readonly id: string;
  /**
   * The @skein/extension-api versions this extension works with, as a semver range. `defineExtension`
   * fills in `^` the version it was built against; a host whose version is outside it refuses to load it.
   */
  readonly apiRange?: string;
  readonly context?: ContextContributor;
  readonly turnInput?: TurnInputContributor;
  readonly lifecycle?: ThreadLifecycleContributor;
  readonly tools?: ToolContributor;
  readonly worldState?: readonly WorldStateContributor[];
  /** Lifecycle hooks, run beside the user's command hooks (they need no trust: installing the extension is the trust). */
  readonly hooks?: readonly HookContributor[];
  /** The context fragments `context` renders (`defineContextFragment`); their markers must be the extension's own. */
  readonly fragments?: readonly ContextFragmentDefinition[];
}

/** A contribution together with the extension it came from. */
export interface Contribution<T> {
  readonly extensionId: string;
  readonly contributor: T;
}

/** The installed extensions, grouped by what they contribute. */
export interface ExtensionRegistry {
  readonly extensions: readonly Extension[];
  readonly context: readonly Contribution<ContextContributor>[];
  readonly turnInput: readonly Contribution<TurnInputContributor>[];
  readonly lifecycle: readonly Contribution<ThreadLifecycleContributor>[];
  readonly tools: readonly Contribution<ToolContributor>[];
  readonly worldState: readonly Contribution<WorldStateContributor>[];
  readonly hooks: readonly Contribution<HookContributor>[];
  /** Each extension's fragment definitions. */
  readonly fragments: readonly Contribution<ContextFragmentDefinition>[];
  /** Every fragment history must recognise as context: the built-ins, then the extensions'. Hosts pass it to the thread store. */
  readonly contextFragments: readonly ContextFragmentDefinition[];
}

/** Why an extension could not be installed. */
export class ExtensionRegistryError extends Error {
  override readonly name = 'ExtensionRegistryError';
  constructor(
    readonly code: 'InvalidId' | 'DuplicateId' | 'DuplicateSection' | 'DuplicateFragment',
    message: string,
  ) {
    super(message);
  }
}

const EXTENSION_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Type-checks an extension literal and records which contract versions it needs: the range it
 * names, else those compatible with the version of @skein/extension-api it was built against.
 */
export function defineExtension<E extends Extension>(extension: E): E & { readonly apiRange: string } {
  return { ...extension, apiRange: extension.apiRange ?? `^${EXTENSION_API_VERSION}` };
}

/**
 * Collects extensions, checking ids, world-state section ids and fragment kinds are unique and no
 * fragment marker can be taken for a built-in's or another extension's, and builds the registry.
 */
export class ExtensionRegistryBuilder {
  readonly #extensions: Extension[] = [];

  add(extension: Extension): this {
    if (!EXTENSION_ID.test(extension.id)) {
      throw new ExtensionRegistryError('InvalidId', `extension id '${extension.id}' must match ${EXTENSION_ID.source}`);
    }
    if (this.#extensions.some((existing) => existing.id === extension.id)) {
      throw new ExtensionRegistryError('DuplicateId', `an extension with id '${extension.id}' is already installed`);
    }
    const sections = new Set(this.#extensions.flatMap((existing) => (existing.worldState ?? []).map((section) => section.sectionId)));
    for (const section of extension.worldState ?? []) {
      if (sections.has(section.sectionId)) {
        throw new ExtensionRegistryError('DuplicateSection', `world-state section '${section.sectionId}' of '${extension.id}' is already contributed`);
      }
      sections.add(section.sectionId);
    }
    this.#checkFragments(extension);
    this.#extensions.push(extension);
    return this;
  }

  build(): ExtensionRegistry {
    const extensions = [...this.#extensions];
    const collect = <T>(pick: (extension: Extension) => T | undefined): Contribution<T>[] =>
      extensions.flatMap((extension) => {
        const contributor = pick(extension);
        return contributor === undefined ? [] : [{ extensionId: extension.id, contributor }];
      });
    return Object.freeze({
      extensions,
      context: collect((extension) => extension.context),
      turnInput: collect((extension) => extension.turnInput),
      lifecycle: collect((extension) => extension.lifecycle),
      tools: collect((extension) => extension.tools),
      worldState: extensions.flatMap((extension) => (extension.worldState ?? []).map((contributor) => ({ extensionId: extension.id, contributor }))),
      hooks: extensions.flatMap((extension) => (extension.hooks ?? []).map((contributor) => ({ extensionId: extension.id, contributor }))),
      fragments: extensions.flatMap((extension) => (extension.fragments ?? []).map((contributor) => ({ extensionId: extension.id, contributor }))),
      contextFragments: [...BUILT_IN_CONTEXT_FRAGMENTS, ...extensions.flatMap((extension) => extension.fragments ?? [])],
    });
  }

  // Markers collide when one opens the other: history could not tell the two fragments apart.
  #checkFragments(extension: Extension): void {
    const claimed: { readonly owner: string; readonly definition: ContextFragmentDefinition }[] = [
      ...BUILT_IN_CONTEXT_FRAGMENTS.map((definition) => ({ owner: 'a built-in fragment', definition })),
      ...this.#extensions.flatMap((existing) => (existing.fragments ?? []).map((definition) => ({ owner: `extension '${existing.id}'`, definition }))),
    ];
    for (const definition of extension.fragments ?? []) {
      const clash = claimed.find(({ definition: other }) => other.kind === definition.kind || contextFragmentMarkersCollide(other.open, definition.open));
      if (clash !== undefined) {
        const what = clash.definition.kind === definition.kind ? `kind '${definition.kind}'` : `marker '${definition.open}'`;
        throw new ExtensionRegistryError('DuplicateFragment', `fragment ${what} of '${extension.id}' collides with ${clash.owner} ('${clash.definition.open}')`);
      }
      claimed.push({ owner: `extension '${extension.id}'`, definition });
    }
  }
}
