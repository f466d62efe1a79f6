// The skills extension as the hosts (`skein app-server`, `skein exec`) install it by default:
// settings come from the config a thread in that directory would load, and every MCP server marked
// `skein_skill_source = true` becomes a remote provider of `mcp/skill` resources.
import { skillsSettings, type Config } from '@skein/config';
import { remoteSkillProvider, SkillsService } from '@skein/ext-skills';
import { McpServers, resourceSource } from '@skein/mcp-client';

/** The service and what it holds open. */
export interface HostSkills {
  readonly service: SkillsService;
  /** Stops the watcher and the MCP servers it started. */
  close(): Promise<void>;
}

/**
 * Skills for a host whose startup config is `config`; `configFor` loads the config of another
 * directory. `watch: false` for one-shot hosts.
 */
export function hostSkills(config: Config, configFor: (cwd: string) => Promise<Config>, options: { readonly watch?: boolean } = {}): HostSkills {
  const servers = new McpServers(config.mcpServers);
  const providers = config.mcpSkillSources.map((name) => {
    const seconds = config.mcpServers[name]?.tool_timeout_sec;
    return remoteSkillProvider(resourceSource(servers, name), seconds === undefined ? {} : { timeoutMs: seconds * 1000 });
  });
  const service = new SkillsService({ home: config.homeDir, settings: async (cwd) => skillsSettings(await configFor(cwd)), providers, ...options });
  return {
    service,
    async close() {
      await Promise.all([service.close(), servers.close()]);
    },
  };
}
