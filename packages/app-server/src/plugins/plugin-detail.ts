// `plugin/read`'s answer: a plugin's summary, its skills (read from the marketplace's copy, named
// `<plugin>:<skill>` as they will be once installed), and what else it ships that Skein lists but
// does not run yet: MCP servers and hooks.
import type { SkillsService } from '@skein/ext-skills';
import { containedSkillRoots, pluginHooks, pluginMcpServerNames, type PluginService } from '@skein/plugins';
import type { PluginDetail, SkillMetadata } from '@skein/protocol';
import { pluginSummary } from './plugin-wire.js';

export async function readPluginDetail(plugins: PluginService, skills: SkillsService | undefined, pluginName: string, marketplacePath: string): Promise<PluginDetail & Record<string, unknown>> {
  const { marketplace, plugin } = await plugins.read(pluginName, marketplacePath);
  const manifest = plugin.manifest;
  const listed =
    skills === undefined
      ? { skills: [] }
      : await skills.readPluginSkills({ id: plugin.id, name: plugin.name, marketplaceRoot: marketplace.root, root: manifest.root, skillRoots: await containedSkillRoots(manifest) });
  return {
    marketplaceName: marketplace.name,
    marketplacePath: marketplace.file,
    summary: pluginSummary(plugin),
    shareUrl: null,
    description: manifest.json.description ?? null,
    skills: listed.skills.map(
      (skill): SkillMetadata => ({
        name: skill.name,
        description: skill.description,
        shortDescription: skill.shortDescription ?? null,
        interface: skill.interface === undefined ? null : { ...skill.interface },
        path: skill.locator.kind === 'file' ? skill.locator.path : skill.locator.mainResource,
        scope: skill.scope,
        enabled: true,
      }),
    ),
    onboardingSkill: null,
    hooks: await pluginHooks(manifest),
    apps: [],
    appTemplates: [],
    mcpServers: await pluginMcpServerNames(manifest),
    scheduledTasks: null,
  };
}
