// `skills/list`: the skills a thread in each of some directories would see (user, repo, system and
// admin scopes), one entry per directory with the skills found and the files that failed to load.
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';
import { lazySchema } from '../lazy-schema.js';

export const SkillsListParams = lazySchema(() => z.object({
  /** Directories to list for; empty or absent: the server's working directory. */
  cwds: z.array(z.string()).optional(),
  /** Re-scan the skill roots instead of answering from a cache. */
  forceReload: z.boolean().optional(),
}));
export type SkillsListParams = z.infer<typeof SkillsListParams>;

/** Where a skill comes from. */
export const SkillScope = lazySchema(() => z.enum(['user', 'repo', 'system', 'admin']));
export type SkillScope = z.infer<typeof SkillScope>;

export const SkillMetadata = lazySchema(() => z.object({
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
}));
export type SkillMetadata = z.infer<typeof SkillMetadata>;

/** The skills of one requested directory; `cwd` is echoed as the client sent it. */
export const SkillsListEntry = lazySchema(() => z.object({
  cwd: z.string(),
  skills: z.array(SkillMetadata),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
}));
export type SkillsListEntry = z.infer<typeof SkillsListEntry>;

export const SkillsListResponse = lazySchema(() => z.object({ data: z.array(SkillsListEntry) }));
export type SkillsListResponse = z.infer<typeof SkillsListResponse>;

/** `skills/config/write`: switch a skill on or off, by its SKILL.md path or by name. */
export const SkillsConfigWriteParams = lazySchema(() => z
  .object({
    enabled: z.boolean(),
    name: z.string().min(1).nullish(),
    path: AbsolutePath.nullish(),
  })
  .refine((params) => params.name != null || params.path != null, { error: 'name the skill by `path` or by `name`' }));
export type SkillsConfigWriteParams = z.infer<typeof SkillsConfigWriteParams>;

/** Whether the skill is enabled once the write is applied (config layers above the user's may still decide). */
export const SkillsConfigWriteResponse = lazySchema(() => z.object({ effectiveEnabled: z.boolean() }));
export type SkillsConfigWriteResponse = z.infer<typeof SkillsConfigWriteResponse>;

/** `skills/extraRoots/set`: folders scanned for user skills beside the configured ones, for this server's life. */
export const SkillsExtraRootsSetParams = lazySchema(() => z.object({ extraRoots: z.array(AbsolutePath) }));
export type SkillsExtraRootsSetParams = z.infer<typeof SkillsExtraRootsSetParams>;
