// The skills extension as the hosts (`skein app-server`, `skein exec`) install it by default:
// settings come from the config a thread in that directory would load, every MCP server marked
// `skein_skill_source = true` becomes a remote provider of `mcp/skill` resources, and installed,
// enabled plugins add their skills as `<plugin>:<skill>`.
import os from 'node:os';
import { skillsSettings, type Config } from '@skein/config';
import { remoteSkillProvider, SkillsService } from '@skein/ext-skills';
import { McpServers, resourceSource } from '@skein/mcp-client';
import type { Extension } from '@skein/extension-api';
import { enabledPluginSkills, PluginService, pluginsExtension } from '@skein/plugins';

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
      return { ...skillsSettings(loaded), plugins: await enabledPluginSkills(loaded.homeDir, loaded.plugins) };
    },
    disabledPlugins: (threadId) => disabledPlugins(threadId),
    providers,
    userHome,
    ...(options.watch === undefined ? {} : { watch: options.watch }),
  });
  const plugins = new PluginService({ home: config.homeDir, userHome, settings: async () => (await configFor(config.cwd)).plugins });
  const activePlugins = async ({ threadId, cwd }: { readonly threadId: string; readonly cwd: string }) => {
    const loaded = await configFor(cwd);
    const off = new Set(disabledPlugins(threadId));
    return (await enabledPluginSkills(loaded.homeDir, loaded.plugins)).filter((plugin) => !off.has(plugin.id));
  };
  return {
    service,
    plugins,
    extensions: [service.extension, pluginsExtension({ activePlugins })],
    useThreadPlugins(disabled) {
      disabledPlugins = disabled;
    },
    async close() {
      await Promise.all([service.close(), servers.close()]);
    },
  };
}
