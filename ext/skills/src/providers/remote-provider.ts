// Remote (orchestrator) skills: resources of kind `mcp/skill` (their MIME type) that a hosted MCP
// server lists, with no executor at all. Each thread keeps the first outcome of its discovery —
// failures and timeouts included — so a hanging server costs one discovery timeout per thread, and
// every read goes back to the server that listed the skill.
import type { Skill } from '../skill.js';
import type { SkillListing, SkillProvider, SkillProviderRequest, SkillResourceContents } from './skill-provider.js';

/** The MIME type that marks an MCP resource as a skill package. */
export const MCP_SKILL_MIME_TYPE = 'mcp/skill';

/** One resource as an MCP server lists it (the fields this provider reads). */
export interface RemoteResource {
  readonly uri: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/** One content block of a read. */
export interface RemoteResourceContents {
  readonly uri: string;
  readonly text?: string | undefined;
  readonly blob?: string | undefined;
}

/** An MCP server's resources, as the host connects to it (`@skein/mcp-client` fits this shape). */
export interface RemoteSkillSource {
  /** The `[mcp_servers.<name>]` name: the skills' authority. */
  readonly server: string;
  listResources(options: { readonly cursor?: string | undefined; readonly signal?: AbortSignal | undefined }): Promise<{ readonly resources: readonly RemoteResource[]; readonly nextCursor?: string | undefined }>;
  readResource(uri: string, options: { readonly signal?: AbortSignal | undefined }): Promise<readonly RemoteResourceContents[]>;
}

/** Bounds of one discovery. */
export interface RemoteDiscoveryOptions {
  /** Default 10 s, as Codex waits for its orchestrator. */
  readonly timeoutMs?: number;
  /** Default 10 pages. */
  readonly maxPages?: number;
  /** Default 100 skills. */
  readonly maxSkills?: number;
}

/** A provider over one MCP server. */
export function remoteSkillProvider(source: RemoteSkillSource, options: RemoteDiscoveryOptions = {}): SkillProvider {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxPages = options.maxPages ?? 10;
  const maxSkills = options.maxSkills ?? 100;
  const outcomes = new Map<string, Promise<SkillListing>>();
  const discover = async (): Promise<SkillListing> => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`did not list its skills within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([listAll(source, controller.signal, maxPages, maxSkills), timeout]);
    } catch (error) {
      return { skills: [], warnings: [`MCP server '${source.server}': ${(error as Error).message}; its skills are unavailable in this thread`] };
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    id: source.server,
    kind: 'remote',
    list(request: SkillProviderRequest): Promise<SkillListing> {
      let outcome = outcomes.get(request.threadId);
      if (outcome === undefined) outcomes.set(request.threadId, (outcome = discover()));
      return outcome;
    },
    async read(skill: Skill, resource: string, request: SkillProviderRequest): Promise<SkillResourceContents> {
      if (skill.locator.kind !== 'remote' || skill.locator.server !== source.server) throw new Error('not a skill of this server');
      const contents = await source.readResource(resource, { signal: request.signal });
      const match = contents.find((content) => content.uri === resource && content.text !== undefined);
      if (match?.text === undefined) throw new Error(`MCP server '${source.server}' returned no text for ${resource}`);
      return { resource, contents: match.text };
    },
  };
}

async function listAll(source: RemoteSkillSource, signal: AbortSignal, maxPages: number, maxSkills: number): Promise<SkillListing> {
  const skills: Skill[] = [];
  const warnings: string[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listed = await source.listResources({ cursor, signal });
    for (const resource of listed.resources) {
      if (resource.mimeType !== MCP_SKILL_MIME_TYPE) continue;
      const skill = remoteSkill(source.server, resource);
      if (typeof skill === 'string') warnings.push(skill);
      else if (skills.length < maxSkills) skills.push(skill);
    }
    cursor = listed.nextCursor;
    if (cursor === undefined || cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  return { skills, warnings };
}

/** The skill a resource describes, or why it is not one. */
function remoteSkill(server: string, resource: RemoteResource): Skill | string {
  if (!isPackageUri(resource.uri)) return `MCP server '${server}': ${resource.uri} is not a skill:// package URI; skipped`;
  const meta = resource._meta ?? {};
  const skillName = typeof meta.skill_name === 'string' ? meta.skill_name : resource.name;
  const plugin = typeof meta.plugin_name === 'string' ? meta.plugin_name : undefined;
  const name = meta.source === 'user' || plugin === undefined ? skillName : `${plugin}:${skillName}`;
  return {
    name,
    description: (resource.description ?? '').trim(),
    hidden: false,
    scope: 'user',
    locator: { kind: 'remote', server, package: resource.uri, mainResource: `${resource.uri}/SKILL.md` },
  };
}

/** `skill://host/path`, without query, fragment, port, user info or dot segments. */
function isPackageUri(uri: string): boolean {
  if (!/^skill:\/\/[^/?#@:]+\/[^?#]*$/.test(uri)) return false;
  return uri
    .slice('skill://'.length)
    .split('/')
    .slice(1)
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
