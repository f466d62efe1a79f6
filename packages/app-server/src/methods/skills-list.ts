// `skills/list`, `skills/config/write` and `skills/extraRoots/set`, answered from the skills
// extension's service as Codex answers them: user, repo, admin and system skills per directory, with
// the files that failed to load; toggles persisted in the user's config.toml.
import path from 'node:path';
import type { SkillsService } from '@skein/ext-skills';
import {
  SkillsConfigWriteParams,
  SkillsExtraRootsSetParams,
  SkillsListParams,
  type SkillMetadata,
  type SkillsConfigWriteResponse,
  type SkillsListResponse,
} from '@skein/protocol';
import type { AppServer } from '../app-server.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { writeSkillToggle } from '../skills/skill-toggle-file.js';

/** The `skills/*` methods. */
export const SKILLS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'skills/list',
    defineMethod({
      params: SkillsListParams,
      async handle(params, { server }): Promise<SkillsListResponse> {
        // Codex echoes each cwd as sent (even "."), and lists for its working directory when none is given.
        const cwds = params.cwds === undefined || params.cwds.length === 0 ? [server.config.config.cwd] : params.cwds;
        const skills = server.skills;
        if (skills === undefined) return { data: cwds.map((cwd) => ({ cwd, skills: [], errors: [] })) };
        const forceReload = params.forceReload === true;
        return { data: await Promise.all(cwds.map((cwd) => listEntry(skills, server, cwd, forceReload))) };
      },
    }),
  ],
  [
    'skills/config/write',
    defineMethod({
      params: SkillsConfigWriteParams,
      async handle(params, { server }): Promise<SkillsConfigWriteResponse> {
        const selector = params.path != null ? { path: params.path } : { name: params.name ?? '' };
        await writeSkillToggle(path.join(server.codexHome, 'config.toml'), selector, params.enabled);
        server.skills?.invalidate();
        server.broadcastToAll('skills/changed', {});
        // Read back through the config layers: a project layer may still decide otherwise.
        const skills = server.skills;
        if (skills === undefined) return { effectiveEnabled: params.enabled };
        const listed = await skills.listForClient(server.config.config.cwd);
        const match = listed.skills.find((skill) => ('path' in selector ? skill.locator.kind === 'file' && skill.locator.path === selector.path : skill.name === selector.name));
        return { effectiveEnabled: match?.enabled ?? params.enabled };
      },
    }),
  ],
  [
    'skills/extraRoots/set',
    defineMethod({
      params: SkillsExtraRootsSetParams,
      handle(params, { server }): Record<string, never> {
        server.skills?.setExtraRoots(params.extraRoots);
        return {};
      },
    }),
  ],
]);

async function listEntry(skills: SkillsService, server: AppServer, cwd: string, forceReload: boolean): Promise<SkillsListResponse['data'][number]> {
  const listed = await skills.listForClient(server.resolveCwd(cwd), { forceReload });
  return {
    cwd,
    skills: listed.skills.map(
      (skill): SkillMetadata => ({
        name: skill.name,
        description: skill.description,
        ...(skill.shortDescription === undefined ? {} : { shortDescription: skill.shortDescription }),
        ...(skill.interface === undefined ? {} : { interface: { ...skill.interface, iconSmallUrl: null, iconLargeUrl: null } }),
        ...(skill.dependencies === undefined ? {} : { dependencies: { tools: [...skill.dependencies.tools] } }),
        path: skill.locator.kind === 'file' ? skill.locator.path : skill.locator.mainResource,
        scope: skill.scope,
        enabled: skill.enabled,
        pluginId: skill.pluginId ?? null,
      }),
    ),
    errors: listed.problems.map((problem) => ({ path: problem.path, message: problem.message })),
  };
}
