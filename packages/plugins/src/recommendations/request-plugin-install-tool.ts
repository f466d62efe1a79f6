// `request_plugin_install` as Codex offers it beside `<recommended_plugins>`: the model names one
// listed plugin and why; the user is asked through the client (`mcpServer/elicitation/request` from
// `codex_apps`, `_meta.codex_approval_kind: "tool_suggestion"`), the client installs it if they
// agree, and the model is told whether the plugin is installed now.
import { defineFunctionTool, type FunctionToolHandler, type ToolContext, type ToolResult } from '@skein/extension-api';
import * as z from 'zod';
import type { RecommendedPlugin } from './recommendation-source.js';

export const REQUEST_PLUGIN_INSTALL_TOOL = 'request_plugin_install';

// `tool_id` is the name the older presentation used; Codex takes either.
const Args = z
  .looseObject({ plugin_id: z.string().optional(), tool_id: z.string().optional(), suggest_reason: z.string() })
  .refine((args) => (args.plugin_id ?? args.tool_id) !== undefined, { error: 'plugin_id is required' });
type Args = z.infer<typeof Args>;

const json = (value: Record<string, unknown>, success = true): ToolResult => ({ output: JSON.stringify(value), success });

export interface RequestPluginInstallOptions {
  /** The plugins this turn may suggest (the `<recommended_plugins>` list). */
  readonly recommended: readonly RecommendedPlugin[];
  /** Whether `id` is installed now (checked after the user answered). */
  readonly isInstalled: (id: string) => Promise<boolean>;
}

export function requestPluginInstallTool(options: RequestPluginInstallOptions): FunctionToolHandler<Args> {
  return defineFunctionTool({
    spec: {
      type: 'function',
      name: REQUEST_PLUGIN_INSTALL_TOOL,
      strict: false,
      description: [
        '# Suggest a recommended plugin installation',
        '',
        'Asks the user to install one plugin from the `<recommended_plugins>` list. Use it only when:',
        '- the task clearly needs what that plugin offers, and nothing already available does it;',
        '- the plugin is in the `<recommended_plugins>` list (pass the id in parentheses);',
        '- you have not asked about it in this conversation already.',
        'Ask about one plugin at a time, never in parallel with other calls. The user may decline: then carry on without it.',
      ].join('\n'),
      parameters: {
        type: 'object',
        properties: {
          plugin_id: { type: 'string', description: 'The plugin id from the `<recommended_plugins>` list, as written in parentheses.' },
          suggest_reason: { type: 'string', description: 'One short sentence for the user on why this plugin helps with their request.' },
        },
        required: ['plugin_id', 'suggest_reason'],
        additionalProperties: false,
      },
    },
    arguments: Args,
    handle: (args, context) => requestInstall(args, context, options),
  });
}

async function requestInstall(args: Args, context: ToolContext, options: RequestPluginInstallOptions): Promise<ToolResult> {
  const id = (args.plugin_id ?? args.tool_id ?? '').trim();
  const reason = args.suggest_reason.trim();
  if (reason === '') return { output: 'suggest_reason must not be empty', success: false };
  const plugin = options.recommended.find((candidate) => candidate.id === id);
  if (plugin === undefined) {
    const listed = options.recommended.map((candidate) => candidate.id).join(', ');
    return { output: `plugin_id must be one of the plugins in the <recommended_plugins> list (${listed}); \`${id}\` is not`, success: false };
  }
  return askToInstall(plugin, reason, context, options.isInstalled);
}

/**
 * Asks the user to install `plugin` (the client installs it if they agree) and tells the model the
 * outcome: `completed` when the plugin is installed now.
 */
export async function askToInstall(plugin: RecommendedPlugin, reason: string, context: ToolContext, isInstalled: (id: string) => Promise<boolean>): Promise<ToolResult> {
  const outcome = { tool_type: 'plugin', action_type: 'install', tool_id: plugin.id, tool_name: plugin.displayName, suggest_reason: reason };
  if (await isInstalled(plugin.id)) return json({ completed: true, user_confirmed: false, ...outcome });
  if (context.elicit === undefined) return json({ completed: false, user_confirmed: false, ...outcome });
  const answer = await context.elicit({
    serverName: 'codex_apps',
    message: `Install the ${plugin.displayName} plugin? ${reason}`,
    requestedSchema: { type: 'object', properties: {} },
    meta: { codex_approval_kind: 'tool_suggestion', tool_type: 'plugin', suggest_type: 'install', suggest_reason: reason, tool_id: plugin.id, tool_name: plugin.displayName },
  });
  const confirmed = answer.action === 'accept';
  // The client installs on the user's word; what counts is whether the plugin is there now.
  return json({ completed: confirmed && (await isInstalled(plugin.id)), user_confirmed: confirmed, ...outcome });
}
