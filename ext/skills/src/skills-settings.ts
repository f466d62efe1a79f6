// What the host tells the skills extension about one working directory: where its project root is,
// which skills the user switched off (`[[skills.config]]`), and whether remote skills are offered.

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
