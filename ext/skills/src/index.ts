// @skein/ext-skills — skills for Skein: the catalog, `$name` selection and the `skills` tools.
export { SkillsService } from './skills-service.js';
export type { ClientSkillList, SkillsServiceOptions, TurnCatalog } from './skills-service.js';
export { skillEnabled } from './skills-settings.js';
export type { PluginSkillSource, SkillToggle, SkillsSettings } from './skills-settings.js';
export type { SkillListing, SkillProvider, SkillProviderRequest, SkillResourceContents } from './providers/skill-provider.js';
export type { Skill, SkillLocator, SkillMetadata, SkillProblem, SkillScope } from './skill.js';
export { SKILLS_EXTENSION_ID, SKILLS_SECTION_ID } from './skills-extension.js';
export { MAX_CATALOG_BYTES, SKILLS_INSTRUCTIONS_FRAGMENT } from './catalog/render-catalog.js';
export { MAX_INJECTED_SKILL_BYTES } from './selection/skill-injection.js';
export { MAX_RESULT_BYTES } from './tools/bounded-json.js';
export { PACKAGE_NOT_AVAILABLE } from './tools/skills-tools.js';
export { MCP_SKILL_MIME_TYPE, remoteSkillProvider } from './providers/remote-provider.js';
export type { RemoteDiscoveryOptions, RemoteResource, RemoteResourceContents, RemoteSkillSource } from './providers/remote-provider.js';
export type { PluginSkillSnapshot } from './plugins/plugin-skill-cache.js';
