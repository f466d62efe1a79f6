// A skill as the catalog and the selection see it, whichever provider found it. The locator says how
// the model reaches the skill's files; a provider reads them back only through the authority named.

/** Where a skill comes from, in `skills/list`'s terms. */
export type SkillScope = 'user' | 'repo' | 'system' | 'admin';

/** How a skill's files are reached. */
export type SkillLocator =
  /** A file on the host: `rootPath` is the catalog root it is listed under, `path` the SKILL.md (a plugin's skills are listed under its marketplace's cache folder). */
  | { readonly kind: 'file'; readonly rootPath: string; readonly path: string }
  /** A package on a remote executor (a capability root); `package` and `mainResource` are `skill://` URIs. */
  | {
      readonly kind: 'executor';
      /** The capability root's id: the authority every read is checked against. */
      readonly authorityId: string;
      readonly environmentId: string;
      /** The root's native path on the executor. */
      readonly rootPath: string;
      /** The skill's folder, native, on the executor. */
      readonly skillRoot: string;
      readonly package: string;
      readonly mainResource: string;
    }
  /** A resource of a hosted MCP server (no executor at all). */
  | { readonly kind: 'remote'; readonly server: string; readonly package: string; readonly mainResource: string }
  /** A resource a custom provider serves; `resource` is the provider's own identifier. */
  | { readonly kind: 'custom'; readonly providerId: string; readonly package: string; readonly mainResource: string };

/** What a skill's front matter and `agents/openai.yaml` say about it. */
export interface SkillMetadata {
  readonly name: string;
  readonly description: string;
  readonly shortDescription?: string | undefined;
  /** `agents/openai.yaml`'s `interface` table, camel-cased as `skills/list` reports it. */
  readonly interface?: Readonly<Record<string, unknown>> | undefined;
  /** `agents/openai.yaml`'s `dependencies.tools`. */
  readonly dependencies?: { readonly tools: readonly Readonly<Record<string, unknown>>[] } | undefined;
  /** Invokable by name but left out of the catalog (`policy.allow_implicit_invocation: false`). */
  readonly hidden: boolean;
}

/** One skill a provider found. */
export interface Skill extends SkillMetadata {
  readonly scope: SkillScope;
  readonly locator: SkillLocator;
  /** The installed plugin (`<plugin>@<marketplace>`) that brought the skill; undefined for every other skill. */
  readonly pluginId?: string | undefined;
}

/** A file that looked like a skill but could not be read as one. */
export interface SkillProblem {
  readonly path: string;
  readonly message: string;
}
