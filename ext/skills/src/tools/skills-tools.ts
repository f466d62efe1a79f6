// The `skills` namespace: `list` and `read` for skills that are not files on this machine (executor,
// remote and custom packages). Results are compact JSON of at most 8 KB with cursors; every read is
// checked against the live catalog (authority and package) and read through the provider that
// listed the skill. An unknown package is the plain text Codex answers, and the turn goes on.
import { defineFunctionTool, type FunctionToolHandler, lazySchema, type NamespaceToolHandler, type ToolResult } from '@skein/extension-api';
import * as z from 'zod';
import { executorAliases } from '../catalog/render-catalog.js';
import type { SkillProviderRequest } from '../providers/skill-provider.js';
import type { SkillsService } from '../skills-service.js';
import type { Skill } from '../skill.js';
import { decodeCursor, encodeCursor, fitItems, fitText } from './bounded-json.js';
import { checkedResource, ResourceUriError } from './resource-uri.js';

/** The output for a package the live catalog does not have (Codex's text). */
export const PACKAGE_NOT_AVAILABLE = 'skill package is not available';

const Authority = lazySchema(() => z.object({ kind: z.enum(['cloud', 'executor']) }).strict());
const ListArgs = lazySchema(() => z.object({ authority: Authority, cursor: z.string().optional() }).strict());
const ReadArgs = lazySchema(() => z.object({ package: z.string().min(1), resource: z.string().optional(), cursor: z.string().optional() }));
const ListCursor = lazySchema(() => z.object({ offset: z.number().int().nonnegative() }));
const ReadCursor = lazySchema(() => z.object({ resource: z.string(), offset: z.number().int().nonnegative() }));

const authoritySchema = (kind: string) => ({
  type: 'object',
  properties: { kind: { type: 'string', enum: [kind] } },
  required: ['kind'],
  additionalProperties: false,
});

/** The namespace tool, for a thread whose request is `base` (its environments are the call's). */
export function skillsTools(service: SkillsService, base: Omit<SkillProviderRequest, 'environments'>): NamespaceToolHandler {
  const live = async (environments: SkillProviderRequest['environments']) => (await service.turnCatalog({ ...base, environments })).skills.filter((skill) => skill.locator.kind !== 'file');
  const list: FunctionToolHandler<z.infer<typeof ListArgs>> = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'list',
      strict: false,
      description: 'Lists the skills of one authority: `executor` for skills on the execution environments, `cloud` for skills the orchestrator serves. Pass `cursor` from a previous answer to get the next page.',
      parameters: { type: 'object', properties: { authority: { oneOf: [authoritySchema('cloud'), authoritySchema('executor')] }, cursor: { type: 'string' } }, required: ['authority'], additionalProperties: false },
    },
    arguments: ListArgs,
    async handle(args, context): Promise<ToolResult> {
      const offset = args.cursor === undefined ? 0 : ListCursor.safeParse(decodeCursor(args.cursor));
      if (typeof offset !== 'number' && !offset.success) return failure('cursor is not one this tool gave out; call skills.list without it to start over');
      const start = typeof offset === 'number' ? offset : offset.data.offset;
      const wanted = args.authority.kind === 'executor' ? 'executor' : 'remote';
      const skills = (await live(context.environments ?? [])).filter((skill) => (wanted === 'executor' ? skill.locator.kind === 'executor' : skill.locator.kind !== 'executor'));
      const rest = skills.slice(start).map(listEntry);
      const { result } = fitItems(rest, (page, more) => ({ skills: page, warnings: [], next_cursor: more ? encodeCursor({ offset: start + page.length }) : null }));
      // What the orchestrator's providers list came from outside the thread's environments.
      return { output: JSON.stringify(result), success: true, ...(wanted === 'remote' && rest.length > 0 ? EXTERNAL : {}) };
    },
  });
  const read: FunctionToolHandler<z.infer<typeof ReadArgs>> = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'read',
      strict: false,
      description: "Reads a skill's SKILL.md, or with `resource` another file of the same package (a `skill://` URI under it). `package` is as the catalog or skills.list gives it. Long files come in parts: pass `cursor` to continue.",
      parameters: { type: 'object', properties: { cursor: { type: 'string' }, package: { type: 'string' }, resource: { type: 'string' } }, required: ['package'] },
    },
    arguments: ReadArgs,
    async handle(args, context): Promise<ToolResult> {
      const environments = context.environments ?? [];
      const skills = await live(environments);
      const skill = findPackage(skills, args.package);
      if (skill === undefined || skill.locator.kind === 'file') return { output: PACKAGE_NOT_AVAILABLE, success: false };
      const cursor = args.cursor === undefined ? undefined : ReadCursor.safeParse(decodeCursor(args.cursor));
      if (cursor !== undefined && !cursor.success) return failure('cursor is not one this tool gave out; read again without it');
      let resource: string;
      try {
        resource = checkedResource(skill.locator.package, skill.locator.mainResource, cursor?.data.resource ?? args.resource, skills.flatMap((other) => (other.locator.kind === 'file' ? [] : [other.locator.package])));
      } catch (error) {
        if (error instanceof ResourceUriError) return failure(error.message);
        throw error;
      }
      const provider = service.providerFor(skill);
      if (provider === undefined) return { output: PACKAGE_NOT_AVAILABLE, success: false };
      let contents;
      try {
        contents = await provider.read(skill, resource, { ...base, environments, signal: context.signal });
      } catch (error) {
        return failure(`could not read ${resource}: ${(error as Error).message}`);
      }
      const offset = cursor?.data.offset ?? 0;
      const text = contents.contents.slice(offset);
      const { result } = fitText(text, (chunk, more) => ({
        resource: contents.resource,
        contents: chunk,
        ...(contents.skillRoot === undefined ? {} : { skill_root: contents.skillRoot }),
        next_cursor: more ? encodeCursor({ resource, offset: offset + chunk.length }) : null,
      }));
      return { output: JSON.stringify(result), success: true, ...(skill.locator.kind === 'executor' ? {} : EXTERNAL) };
    },
  });
  return {
    kind: 'namespace',
    name: 'skills',
    description: 'Skills that live on execution environments or are served by the orchestrator: list them and read their files. Their `skill://` identifiers are not filesystem paths.',
    tools: [list, read],
    parallel: true,
  };
}

function listEntry(skill: Skill) {
  const locator = skill.locator;
  const authority = locator.kind === 'executor' ? { kind: 'executor', id: locator.authorityId } : { kind: 'cloud', id: locator.kind === 'remote' ? locator.server : locator.kind === 'custom' ? locator.providerId : '' };
  return {
    authority,
    package: locator.kind === 'file' ? locator.path : locator.package,
    name: skill.name,
    description: skill.description,
    main_resource: locator.kind === 'file' ? locator.path : locator.mainResource,
  };
}

/** The skill whose package is `name`: a full `skill://` URI or an alias-short one (`e0/skills/x`). */
function findPackage(skills: readonly Skill[], name: string): Skill | undefined {
  const aliases = executorAliases(skills);
  let full = name;
  const slash = name.indexOf('/');
  if (!name.startsWith('skill://') && slash > 0) {
    const root = [...aliases].find(([, alias]) => alias === name.slice(0, slash))?.[0];
    if (root !== undefined) full = `${root}/${name.slice(slash + 1)}`;
  }
  return skills.find((skill) => skill.locator.kind !== 'file' && skill.locator.package === full);
}

/** Marks an output whose content an orchestrator's provider served, not the thread's environments. */
const EXTERNAL = { externalContext: true } as const;

function failure(message: string): ToolResult {
  return { output: message, success: false };
}
