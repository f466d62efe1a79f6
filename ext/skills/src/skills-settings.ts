// What the host tells the skills extension about one working directory: where its project root is,
// which skills the user switched off (`[[skills.config]]`), whether remote skills are offered, and
// which installed plugins bring skills of their own.

/** One `[[skills.config]]` entry: a skill named by its SKILL.md path or by its name. */
export interface SkillToggle {
  readonly path?: string | undefined;
  readonly name?: string | undefined;
  readonly enabled: boolean;
}

/** The host's settings for a directory. */
export interface SkillsSettings {
  /** The project root containing the directory (repo skills are looked up from it down to the directory). */
  readonly projectRoot: string;
  /** Later entries win over earlier ones. */
  readonly toggles: readonly SkillToggle[];
  /** `[orchestrator.skills].enabled`: false hides remote skills and, with no executor skills either, the `skills` tools. */
  readonly remoteSkills: boolean;
  /** Installed, enabled plugins whose skills join the catalog (the extension knows plugins only through this). */
  readonly plugins?: readonly PluginSkillSource[] | undefined;
}

/** An installed, enabled plugin whose skills join the catalog as `<name>:<skill>`. */
export interface PluginSkillSource {
  /** `<plugin>@<marketplace>`. */
  readonly id: string;
  /** The plugin's name: its skills are named `<name>:<skill>`. */
  readonly name: string;
  /** `<home>/plugins/cache/<marketplace>`: the catalog's root alias for the plugin's skills. */
  readonly marketplaceRoot: string;
  /** The installed folder, `<marketplaceRoot>/<plugin>/<version>`. */
  readonly root: string;
  /** Absolute folders beneath `root` holding its skills. */
  readonly skillRoots: readonly string[];
}

/** Whether `toggles` leave the skill at `path` named `name` enabled (a path entry beats a name entry). */
export function skillEnabled(toggles: readonly SkillToggle[], path: string, name: string): boolean {
  let byPath: boolean | undefined;
  let byName: boolean | undefined;
  for (const toggle of toggles) {
    if (toggle.path !== undefined && toggle.path === path) byPath = toggle.enabled;
    else if (toggle.path === undefined && toggle.name === name) byName = toggle.enabled;
  }
  return byPath ?? byName ?? true;
}
