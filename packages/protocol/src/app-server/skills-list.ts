// `skills/list`: the skills a thread in each of some directories would see (user, repo, system and
// admin scopes), one entry per directory with the skills found and the files that failed to load.
import { z } from 'zod';

export const SkillsListParams = z.object({
  /** Directories to list for; empty or absent: the server's working directory. */
  cwds: z.array(z.string()).optional(),
  /** Re-scan the skill roots instead of answering from a cache. */
  forceReload: z.boolean().optional(),
});
export type SkillsListParams = z.infer<typeof SkillsListParams>;

/** Where a skill comes from. */
export const SkillScope = z.enum(['user', 'repo', 'system', 'admin']);
export type SkillScope = z.infer<typeof SkillScope>;

export const SkillMetadata = z.object({
  name: z.string(),
  description: z.string(),
  shortDescription: z.string().nullish(),
  /** The skill's `SKILL.md`. */
  path: z.string(),
  scope: SkillScope,
  enabled: z.boolean(),
  pluginId: z.string().nullish(),
  interface: z.record(z.string(), z.unknown()).nullish(),
  dependencies: z.object({ tools: z.array(z.record(z.string(), z.unknown())) }).nullish(),
});
export type SkillMetadata = z.infer<typeof SkillMetadata>;

/** The skills of one requested directory; `cwd` is echoed as the client sent it. */
export const SkillsListEntry = z.object({
  cwd: z.string(),
  skills: z.array(SkillMetadata),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type SkillsListEntry = z.infer<typeof SkillsListEntry>;

export const SkillsListResponse = z.object({ data: z.array(SkillsListEntry) });
export type SkillsListResponse = z.infer<typeof SkillsListResponse>;
