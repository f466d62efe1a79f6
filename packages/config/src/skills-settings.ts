// What the skills extension reads of a directory's config (structurally its `SkillsSettings`), so
// every host derives it the same way without loading another host's code.
import type { Config } from './config.js';
import type { SkillToggleToml } from './config-toml.js';
import { findProjectRoot } from './project-layers.js';

/** The project root repo skills are found under, the user's toggles, and whether remote skills are on. */
export function skillsSettings(config: Config): { readonly projectRoot: string; readonly toggles: readonly SkillToggleToml[]; readonly remoteSkills: boolean } {
  return {
    projectRoot: findProjectRoot(config.cwd, config.projectRootMarkers),
    toggles: config.skillToggles,
    remoteSkills: config.orchestrator.skillsEnabled,
  };
}
