// The `skills` namespace: `list` and `read` for skills that are not files on this machine (executor,
// remote and custom packages). Results are compact JSON of at most 8 KB with cursors; every read is
// checked against the live catalog (authority and package) and read through the provider that
// listed the skill. An unknown package is the plain text Codex answers, and the turn goes on.
import { defineFunctionTool, type FunctionToolHandler, lazySchema, type NamespaceToolHandler, type ToolResult } from '@skein/extension-api';
import * as z from 'zod';
import { executorAliases } from '../catalog/render-catalog.js';
import type { SkillProviderRequest } from '../providers/skill-provider.js';
import type { SkillsService } from '../skills-service.js';
import type { Skill, SkillLocator } from '../skill.js';
import { decodeCursor, encodeCursor, fitItems, fitText } from './bounded-json.js';
import { checkedResource, ResourceUriError } from './resource-uri.js';

/** The output for a package the live catalog does not have (Codex's text). */
export const PACKAGE_NOT_AVAILABLE = 'skill package is not available';

/** Whose package a skill is: an environment's capability root, an orchestrator (MCP) server, or a custom provider. */
const Authority = lazySchema(() => z.object({ kind: z.enum(['executor', 'remote', 'custom']), id: z.string() }).strict());
type Authority = z.infer<typeof Authority>;
/** The filter `skills.list` took before authorities were listed (old threads' models still send it). */
const LegacyAuthority = lazySchema(() => z.object({ kind: z.enum(['cloud', 'executor']) }).strict());
const ListArgs = lazySchema(() => z.object({ cursor: z.string().optional(), authority: z.union([Authority, LegacyAuthority]).optional() }).strict());
const ReadArgs = lazySchema(() => z.object({ authority: Authority.optional(), package: z.string().min(1), resource: z.string().optional(), cursor: z.string().optional() }));
const ListCursor = lazySchema(() => z.object({ offset: z.number().int().nonnegative() }));
const ReadCursor = lazySchema(() => z.object({ resource: z.string(), offset: z.number().int().nonnegative() }));

const AUTHORITY_SCHEMA = {
  type: 'object',
  properties: { kind: { type: 'string', enum: ['executor', 'remote', 'custom'] }, id: { type: 'string' } },
  required: ['kind', 'id'],
  additionalProperties: false,
};

/** The namespace tool, for a thread whose request is `base` (its environments are the call's). */
export function skillsTools(service: SkillsService, base: Omit<SkillProviderRequest, 'environments'>): NamespaceToolHandler {
  const live = async (environments: SkillProviderRequest['environments']) => (await service.turnCatalog({ ...base, environments })).skills.filter(isPackageSkill);
  const list: FunctionToolHandler<z.infer<typeof ListArgs>> = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'list',
      strict: false,
      description: "Lists the skills on the execution environments and the orchestrator's current ones, each with its authority. Pass `cursor` from a previous answer to get the next page.",
      parameters: { type: 'object', properties: { cursor: { type: 'string' } }, additionalProperties: false },
    },
    arguments: ListArgs,
    async handle(args, context): Promise<ToolResult> {
      const offset = args.cursor === undefined ? 0 : ListCursor.safeParse(decodeCursor(args.cursor));
      if (typeof offset !== 'number' && !offset.success) return failure('cursor is not one this tool gave out; call skills.list without it to start over');
      const start = typeof offset === 'number' ? offset : offset.data.offset;
      const skills = (await live(context.environments ?? [])).filter((skill) => args.authority === undefined || listedUnder(skill, args.authority));
      const rest = skills.slice(start).map(listEntry);
      const { result } = fitItems(rest, (page, more) => ({ skills: page, warnings: [], next_cursor: more ? encodeCursor({ offset: start + page.length }) : null, truncated: more }));
      // What the orchestrator's providers list came from outside the thread's environments.
      return { output: JSON.stringify(result), success: true, ...(rest.some((entry) => entry.authority.kind !== 'executor') ? EXTERNAL : {}) };
    },
  });
  const read: FunctionToolHandler<z.infer<typeof ReadArgs>> = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'read',
      strict: false,
      description: "Reads a skill's SKILL.md, or with `resource` another file of the same package (a `skill://` URI under it). `package` and `authority` are as the catalog or skills.list gives them. Long files come in parts: pass `cursor` to continue.",
      parameters: { type: 'object', properties: { authority: AUTHORITY_SCHEMA, cursor: { type: 'string' }, package: { type: 'string' }, resource: { type: 'string' } }, required: ['package'] },
    },
    arguments: ReadArgs,
    async handle(args, context): Promise<ToolResult> {
      const environments = context.environments ?? [];
      const skills = await live(environments);
      const skill = findPackage(skills, args.package);
      // A package named under another authority than its own is not that authority's to serve.
      if (skill === undefined || (args.authority !== undefined && !sameAuthority(authorityOf(skill), args.authority))) return { output: PACKAGE_NOT_AVAILABLE, success: false };
      const cursor = args.cursor === undefined ? undefined : ReadCursor.safeParse(decodeCursor(args.cursor));
      if (cursor !== undefined && !cursor.success) return failure('cursor is not one this tool gave out; read again without it');
      let resource: string;
      try {
        resource = checkedResource(skill.locator.package, skill.locator.mainResource, cursor?.data.resource ?? args.resource, skills.map((other) => other.locator.package));
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
        authority: authorityOf(skill),
        resource: contents.resource,
        contents: chunk,
        ...(contents.skillRoot === undefined ? {} : { skill_root: contents.skillRoot }),
        next_cursor: more ? encodeCursor({ resource, offset: offset + chunk.length }) : null,
        truncated: more,
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

/** A skill read through the tools: a package, not a file on this machine. */
type PackageSkill = Skill & { readonly locator: Exclude<SkillLocator, { readonly kind: 'file' }> };

function isPackageSkill(skill: Skill): skill is PackageSkill {
  return skill.locator.kind !== 'file';
}

function listEntry(skill: PackageSkill) {
  return { authority: authorityOf(skill), package: skill.locator.package, name: skill.name, description: skill.description, main_resource: skill.locator.mainResource };
}

/** The authority that serves `skill`'s package. */
function authorityOf(skill: PackageSkill): Authority {
  const locator = skill.locator;
  switch (locator.kind) {
    case 'executor':
      return { kind: 'executor', id: locator.authorityId };
    case 'remote':
      return { kind: 'remote', id: locator.server };
    case 'custom':
      return { kind: 'custom', id: locator.providerId };
  }
}

function sameAuthority(left: Authority, right: Authority): boolean {
  return left.kind === right.kind && left.id === right.id;
}

/** Whether `skill` is listed under `filter`: an authority, or the old `executor` / `cloud` split (cloud: everything not on an executor). */
function listedUnder(skill: PackageSkill, filter: z.infer<typeof ListArgs>['authority'] & object): boolean {
  const authority = authorityOf(skill);
  if ('id' in filter) return sameAuthority(authority, filter);
  return filter.kind === 'executor' ? authority.kind === 'executor' : authority.kind !== 'executor';
}

/** The skill whose package is `name`: a full `skill://` URI or an alias-short one (`e0/skills/x`). */
function findPackage(skills: readonly PackageSkill[], name: string): PackageSkill | undefined {
  const aliases = executorAliases(skills);
  let full = name;
  const slash = name.indexOf('/');
  if (!name.startsWith('skill://') && slash > 0) {
    const root = [...aliases].find(([, alias]) => alias === name.slice(0, slash))?.[0];
    if (root !== undefined) full = `${root}/${name.slice(slash + 1)}`;
  }
  return skills.find((skill) => skill.locator.package === full);
}

/** Marks an output whose content an orchestrator's provider served, not the thread's environments. */
const EXTERNAL = { externalContext: true } as const;

function failure(message: string): ToolResult {
  return { output: message, success: false };
}
