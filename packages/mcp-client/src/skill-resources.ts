// How a server marks a resource as a skill: Codex's orchestrator skills are resources whose
// `mimeType` is `mcp/skill`, named by `_meta` keys (see README "Skill resources").
import * as z from 'zod';
import type { McpResource } from './mcp-resource.js';
import { lazySchema } from '@skein/protocol';

/** The `mimeType` of a resource that is a skill package. */
export const MCP_SKILL_MIME_TYPE = 'mcp/skill';

/** Whether a listed resource is a skill package (`mimeType: "mcp/skill"`). */
export function isSkillResource(resource: McpResource): boolean {
  return resource.mimeType === MCP_SKILL_MIME_TYPE;
}

/** The `_meta` keys a skill resource carries, as Codex reads them; other keys are kept. */
export const McpSkillMeta = lazySchema(() => z.looseObject({
  /** The skill's name. */
  skill_name: z.string().min(1),
  /** The plugin that ships it; Codex lists such a skill as `<plugin_name>:<skill_name>`. */
  plugin_name: z.string().min(1).optional(),
  /** `"user"` for a user's own skill, listed by `skill_name` alone. */
  source: z.string().optional(),
}));
export type McpSkillMeta = z.infer<typeof McpSkillMeta>;

/** The skill metadata of a resource, or `undefined` when it is not a skill or its `_meta` lacks a name. */
export function skillResourceMeta(resource: McpResource): McpSkillMeta | undefined {
  if (!isSkillResource(resource)) return undefined;
  const parsed = McpSkillMeta.safeParse(resource._meta);
  return parsed.success ? parsed.data : undefined;
}
