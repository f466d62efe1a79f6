// Providers other than the host: each lists skills for a thread and reads their files back, only
// through the authority that listed them. Executor and remote providers are built in; other teams
// implement `SkillProvider` for their own sources (`custom` skills).
import type { ExtensionScopes, ThreadEnvironments, ThreadInit } from '@skein/extension-api';
import type { Skill } from '../skill.js';

/** What a provider is told when it lists or reads. */
export interface SkillProviderRequest extends ThreadEnvironments {
  readonly threadId: string;
  readonly cwd: string;
  readonly init: ThreadInit;
  readonly session: ExtensionScopes['session'];
  readonly signal?: AbortSignal | undefined;
}

/** A provider's listing: the skills it serves and what went wrong (shown on the catalog, never thrown). */
export interface SkillListing {
  readonly skills: readonly Skill[];
  readonly warnings: readonly string[];
}

/** One file of a package, read back. */
export interface SkillResourceContents {
  /** The resource's `skill://` URI (or the provider's own identifier). */
  readonly resource: string;
  readonly contents: string;
  /** The package's folder, where the provider has one (an executor's native path). */
  readonly skillRoot?: string | undefined;
}

/** A source of skills read through `skills.read`. */
export interface SkillProvider {
  /** Stable id; a custom provider's skills are `custom` skills with this `providerId`. */
  readonly id: string;
  /** `executor` and `remote` are the built-in kinds; anything else offered here is `custom`. */
  readonly kind: 'executor' | 'remote' | 'custom';
  list(request: SkillProviderRequest): Promise<SkillListing>;
  /**
   * Reads `resource` (a canonical child of `skill.locator.package`, already checked) of a skill this
   * provider listed. Throws when it cannot; the message reaches the model.
   */
  read(skill: Skill, resource: string, request: SkillProviderRequest): Promise<SkillResourceContents>;
}
