// Codex's list-backed presentation of plugin suggestions: with `[tool_suggest] discoverables` and no
// `<recommended_plugins>` list, the model gets `list_available_plugins_to_install` (the candidates
// that are not installed) and `request_plugin_install` taking `tool_type`, `action_type`, `tool_id`
// and `suggest_reason`. Only plugins: Skein has no connectors.
import { defineFunctionTool, type FunctionToolHandler, type ToolResult } from '@skein/extension-api';
import * as z from 'zod';
import { pluginMcpServerNames } from '../manifest/plugin-contents.js';
import { containedSkillRoots, type PluginManifest } from '../manifest/plugin-manifest.js';
import type { PluginCatalog } from '../plugin-service.js';
import { askToInstall, REQUEST_PLUGIN_INSTALL_TOOL } from './request-plugin-install-tool.js';

export const LIST_AVAILABLE_PLUGINS_TOOL = 'list_available_plugins_to_install';

/** Longest description a candidate is listed with. */
const MAX_DESCRIPTION_CHARS = 240;

/** A plugin the model may suggest: configured as discoverable, in a marketplace, not installed. */
export interface DiscoverablePlugin {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly hasSkills: boolean;
  readonly mcpServerNames: readonly string[];
}

export interface DiscoverablePluginsOptions {
  readonly discoverable: readonly DiscoverablePlugin[];
  readonly isInstalled: (id: string) => Promise<boolean>;
}

/** The plugins of `catalog` whose ids are in `wanted` and that are not installed, as candidates. */
export async function discoverablePlugins(catalog: PluginCatalog, wanted: ReadonlySet<string>): Promise<DiscoverablePlugin[]> {
  const found = catalog.marketplaces.flatMap((market) => market.plugins.filter((plugin) => wanted.has(plugin.id) && plugin.installed === undefined && plugin.manifest !== undefined));
  return Promise.all(
    found.map(async (plugin) => {
      const manifest = plugin.manifest as PluginManifest;
      return {
        id: plugin.id,
        name: plugin.name,
        displayName: manifest.json.interface?.displayName ?? plugin.name,
        description: manifest.json.description ?? manifest.json.interface?.shortDescription ?? '',
        hasSkills: (await containedSkillRoots(manifest)).length > 0,
        mcpServerNames: await pluginMcpServerNames(manifest),
      };
    }),
  );
}

const ListArgs = z.looseObject({});
const InstallArgs = z.looseObject({ tool_type: z.string(), action_type: z.string(), tool_id: z.string(), suggest_reason: z.string() });
type InstallArgs = z.infer<typeof InstallArgs>;

/** The two tools of the list-backed presentation. */
export function discoverablePluginsTools(options: DiscoverablePluginsOptions): [FunctionToolHandler<z.infer<typeof ListArgs>>, FunctionToolHandler<InstallArgs>] {
  const list = defineFunctionTool({
    spec: {
      type: 'function',
      name: LIST_AVAILABLE_PLUGINS_TOOL,
      strict: false,
      description: [
        '# List plugin install candidates',
        '',
        'Lists plugins the user could install, for when they ask for a specific plugin that is not available here and `tool_search` did not make it callable (or is not offered). Pass a candidate to `request_plugin_install`.',
      ].join('\n'),
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    },
    arguments: ListArgs,
    async handle(): Promise<ToolResult> {
      const installed = await Promise.all(options.discoverable.map((plugin) => options.isInstalled(plugin.id)));
      const tools = options.discoverable
        .filter((_, index) => installed[index] !== true)
        .map((plugin) => ({
          id: plugin.id,
          name: plugin.displayName,
          description: plugin.description.slice(0, MAX_DESCRIPTION_CHARS),
          tool_type: 'plugin',
          has_skills: plugin.hasSkills,
          mcp_server_names: [...plugin.mcpServerNames],
          app_connector_ids: [],
        }));
      return { output: JSON.stringify({ tools }), success: true };
    },
  });
  const install = defineFunctionTool({
    spec: {
      type: 'function',
      name: REQUEST_PLUGIN_INSTALL_TOOL,
      strict: false,
      description: [
        '# Request plugin install',
        '',
        'Asks the user to install one plugin that `list_available_plugins_to_install` returned. Use it only when the user explicitly asked for that plugin and it is not already available; one request at a time. The user may decline.',
      ].join('\n'),
      parameters: {
        type: 'object',
        properties: {
          tool_type: { type: 'string', description: 'What to install: `plugin`.' },
          action_type: { type: 'string', description: 'What to do: `install`.' },
          tool_id: { type: 'string', description: 'The candidate id from `list_available_plugins_to_install`.' },
          suggest_reason: { type: 'string', description: 'One short sentence for the user on why it helps with their request.' },
        },
        required: ['tool_type', 'action_type', 'tool_id', 'suggest_reason'],
        additionalProperties: false,
      },
    },
    arguments: InstallArgs,
    async handle(args, context): Promise<ToolResult> {
      if (args.action_type !== 'install') return { output: 'plugin install requests support only action_type="install"', success: false };
      if (args.tool_type !== 'plugin') return { output: `tool_type must be "plugin": this host has no connectors`, success: false };
      const reason = args.suggest_reason.trim();
      if (reason === '') return { output: 'suggest_reason must not be empty', success: false };
      const plugin = options.discoverable.find((candidate) => candidate.id === args.tool_id.trim());
      if (plugin === undefined) return { output: `tool_id must be one of the plugins list_available_plugins_to_install returned; \`${args.tool_id}\` is not`, success: false };
      return askToInstall(plugin, reason, context, options.isInstalled);
    },
  });
  return [list, install];
}
