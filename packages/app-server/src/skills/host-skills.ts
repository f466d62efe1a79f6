// The skills extension as the hosts (`skein app-server`, `skein exec`) install it by default:
// settings come from the config a thread in that directory would load, every MCP server marked
// `skein_skill_source = true` becomes a remote provider of `mcp/skill` resources, and installed,
// enabled plugins add their skills as `<plugin>:<skill>`.
import os from 'node:os';
import { skillsSettings, type Config } from '@skein/config';
import { remoteSkillProvider, SkillsService } from '@skein/ext-skills';
import { McpServers, resourceSource } from '@skein/mcp-client';
import type { Extension } from '@skein/extension-api';
import { discoverablePlugins, enabledPluginSkills, isPluginInstalled, PluginService, pluginsExtension, readRecommendations, type InstalledPluginSkills, type PluginThread } from '@skein/plugins';

/** The services and what they hold open. */
export interface HostSkills {
  readonly service: SkillsService;
  /** The home's plugins and marketplaces (`plugin/*`, `marketplace/*`). */
  readonly plugins: PluginService;
  /** The extensions hosts install: the skills catalog, then what the model is told of plugins. */
  readonly extensions: readonly Extension[];
  /** Tells the skills which plugins a thread switched off (`turn/start.disabledPluginIds`). */
  useThreadPlugins(disabled: (threadId: string) => readonly string[]): void;
  /** Stops the watcher and the MCP servers it started. */
  close(): Promise<void>;
}

export interface HostSkillsOptions {
  /** Watch skill folders (default true; false for one-shot hosts). */
  readonly watch?: boolean;
  /** The user's home (`~/.agents/...`); default the OS's. */
  readonly userHome?: string;
}

/** The installed, enabled plugins whose skills `config` offers; none with the `plugins` feature off. */
function pluginSkillsOf(config: Config): Promise<InstalledPluginSkills[]> {
  return config.features.isEnabled('plugins') ? enabledPluginSkills(config.homeDir, config.plugins) : Promise.resolve([]);
}

/**
 * Skills for a host whose startup config is `config`; `configFor` loads the config of another
 * directory.
 */
export function hostSkills(config: Config, configFor: (cwd: string) => Promise<Config>, options: HostSkillsOptions = {}): HostSkills {
  const servers = new McpServers(config.mcpServers);
  const providers = config.mcpSkillSources.map((name) => {
    const seconds = config.mcpServers[name]?.tool_timeout_sec;
    return remoteSkillProvider(resourceSource(servers, name), seconds === undefined ? {} : { timeoutMs: seconds * 1000 });
  });
  let disabledPlugins: (threadId: string) => readonly string[] = () => [];
  const userHome = options.userHome ?? os.homedir();
  const service = new SkillsService({
    home: config.homeDir,
    settings: async (cwd) => {
      const loaded = await configFor(cwd);
      return { ...skillsSettings(loaded), plugins: await pluginSkillsOf(loaded) };
    },
    disabledPlugins: (threadId) => disabledPlugins(threadId),
    providers,
    userHome,
    ...(options.watch === undefined ? {} : { watch: options.watch }),
  });
  const plugins = new PluginService({ home: config.homeDir, userHome, settings: async () => (await configFor(config.cwd)).plugins });
  const activePlugins = async ({ threadId, cwd }: PluginThread) => {
    const off = new Set(disabledPlugins(threadId));
    return (await pluginSkillsOf(await configFor(cwd))).filter((plugin) => !off.has(plugin.id));
  };
  // With the `recommended_plugins` feature and a source, the plugins it names that are not installed.
  const recommendations = async ({ cwd }: PluginThread) => {
    const loaded = await configFor(cwd);
    const source = loaded.plugins.recommendations;
    if (!loaded.features.isEnabled('recommended_plugins') || !loaded.features.isEnabled('plugins') || source === undefined) return [];
    return (await readRecommendations(source)).filter((plugin) => loaded.plugins.plugins[plugin.id] === undefined);
  };
  const isInstalled = async (id: string) => isPluginInstalled(config.homeDir, (await configFor(config.cwd)).plugins, id);
  // With the `tool_suggest` feature, `[tool_suggest] discoverables` found in a marketplace and not installed.
  const discoverable = async ({ cwd }: PluginThread) => {
    const loaded = await configFor(cwd);
    const wanted = new Set(loaded.plugins.discoverable);
    if (wanted.size === 0 || !loaded.features.isEnabled('tool_suggest') || !loaded.features.isEnabled('plugins')) return [];
    return discoverablePlugins(await plugins.list(), wanted);
  };
  return {
    service,
    plugins,
    extensions: [service.extension, pluginsExtension({ activePlugins, recommendations, discoverable, isInstalled })],
    useThreadPlugins(disabled) {
      disabledPlugins = disabled;
    },
    async close() {
      await Promise.all([service.close(), servers.close()]);
    },
  };
}
