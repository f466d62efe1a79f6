// Reading a SKILL.md: YAML front matter between `---` lines, then the body. The front matter and the
// optional `agents/openai.yaml` beside it are checked with zod; a bad file is a problem that names
// the file, never an exception that fails a turn.
import type * as Yaml from 'yaml';
import * as z from 'zod';
import type { SkillMetadata } from './skill.js';
import { lazySchema } from '@skein/extension-api';

/** Longest name and description kept (longer ones are refused, as a catalog line must stay short). */
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;

const FrontMatter = lazySchema(() => z.looseObject({
  name: z.string().trim().min(1).max(MAX_SKILL_NAME_CHARS),
  description: z.string().trim().min(1).max(MAX_SKILL_DESCRIPTION_CHARS),
  metadata: z.looseObject({ 'short-description': z.string().optional() }).nullish(),
}));

const OpenAiYaml = lazySchema(() => z.looseObject({
  interface: z
    .looseObject({
      display_name: z.string().optional(),
      short_description: z.string().optional(),
      icon_small: z.string().optional(),
      icon_large: z.string().optional(),
      brand_color: z.string().optional(),
      default_prompt: z.string().optional(),
    })
    .nullish(),
  policy: z.looseObject({ allow_implicit_invocation: z.boolean().optional() }).nullish(),
  dependencies: z.looseObject({ tools: z.array(z.record(z.string(), z.unknown())).optional() }).nullish(),
}));

/** Why a SKILL.md was not taken. */
export class SkillFileError extends Error {
  override readonly name = 'SkillFileError';
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

// The YAML parser (260 KB) is imported with the first skill file read, not when a host starts (issue #18).
let yamlModule: Promise<typeof Yaml> | undefined;

/** yaml's Node build is CommonJS: a bundle's dynamic import of it yields the exports as `default`. */
async function importYaml(): Promise<typeof Yaml> {
  const loaded = (await import('yaml')) as typeof Yaml & { readonly default?: typeof Yaml };
  return typeof loaded.parse === 'function' ? loaded : (loaded.default ?? loaded);
}

/** The metadata of a SKILL.md's text. `openAiYaml` is the text of `agents/openai.yaml`, if there is one. */
export async function parseSkillFile(text: string, openAiYaml?: string): Promise<SkillMetadata> {
  const fence = FENCE.exec(text.replace(/^\uFEFF/, ''));
  if (fence === null) throw new SkillFileError('missing YAML front matter (a `---` line, the keys, then another `---` line)');
  const { parse } = await (yamlModule ??= importYaml());
  const parseYamlOrThrow = (yaml: string, what: string): unknown => {
    try {
      return parse(yaml, { maxAliasCount: 100 });
    } catch (error) {
      throw new SkillFileError(`${what} is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
  };
  const front = FrontMatter.safeParse(parseYamlOrThrow(fence[1] ?? '', 'front matter'));
  if (!front.success) throw new SkillFileError(`front matter: ${describeIssues(front.error)}`);
  const extra = openAiYaml === undefined ? undefined : OpenAiYaml.safeParse(parseYamlOrThrow(openAiYaml, 'agents/openai.yaml') ?? {});
  if (extra !== undefined && !extra.success) throw new SkillFileError(`agents/openai.yaml: ${describeIssues(extra.error)}`);
  const shortDescription = front.data.metadata?.['short-description'];
  const face = extra?.data.interface;
  return {
    name: front.data.name,
    description: front.data.description,
    ...(shortDescription === undefined ? {} : { shortDescription }),
    ...(face == null
      ? {}
      : {
          interface: {
            displayName: face.display_name ?? null,
            shortDescription: face.short_description ?? null,
            iconSmall: face.icon_small ?? null,
            iconLarge: face.icon_large ?? null,
            brandColor: face.brand_color ?? null,
            defaultPrompt: face.default_prompt ?? null,
          },
        }),
    ...(extra?.data.dependencies?.tools === undefined ? {} : { dependencies: { tools: extra.data.dependencies.tools } }),
    hidden: extra?.data.policy?.allow_implicit_invocation === false,
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`)).join('; ');
}
