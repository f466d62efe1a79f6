// What the model is told about plugins: `<plugins_instructions>` in the thread's developer context
// while any plugin is on for the thread; for a turn that mentions a plugin (`[@name](plugin://<id>)`
// in text, or a `mention` input whose path is `plugin://<id>`), a developer message naming what that
// plugin brings; and, where the host has recommendations, `<recommended_plugins>` with the
// `request_plugin_install` tool. Which plugins are on, and which are recommended, is the host's to say.
import { defineContextFragment, defineExtension, type ContextFragment, type Extension, type ExtensionData, type HostNotices, type ResponseItem, type UserInput } from '@skein/extension-api';
import type { RecommendedPlugin } from '../recommendations/recommendation-source.js';
import { RECOMMENDED_PLUGINS_FRAGMENT, renderRecommendedPlugins } from '../recommendations/recommended-plugins-fragment.js';
import { discoverablePluginsTools, type DiscoverablePlugin } from '../recommendations/discoverable-plugins-tools.js';
import { requestPluginInstallTool } from '../recommendations/request-plugin-install-tool.js';

export const PLUGINS_EXTENSION_ID = 'plugins';

/** `<plugins_instructions>`: how the model should treat plugin capabilities. */
export const PLUGINS_INSTRUCTIONS_FRAGMENT = defineContextFragment({
  kind: 'plugins.instructions',
  role: 'developer',
  open: '<plugins_instructions>',
  close: '</plugins_instructions>',
});

const INSTRUCTIONS = [
  '## Plugins',
  'A plugin is an installed bundle of capabilities (skills, and in time MCP servers and apps) that the user added to this session.',
  '### How to use plugins',
  '- Skill naming: a skill a plugin ships is named `plugin_name:skill_name`; use it like any other skill.',
  '- MCP naming: a tool of an MCP server is called `mcp__server__tool`.',
  '- When to use: prefer a plugin when the user names it or when the task plainly falls within what it offers.',
  '- Capabilities: a plugin adds to the tools you already have; it does not replace them or change your permissions.',
  '- Relevance: leave plugins alone when the task has nothing to do with them.',
  '- Missing or blocked: if a plugin capability you need is unavailable or fails, say so and carry on with what you have.',
].join('\n');

/** A plugin that is on for a thread, as the model is told of it. */
export interface ActivePlugin {
  /** `<plugin>@<marketplace>`. */
  readonly id: string;
  readonly name: string;
  /** The manifest's `interface.displayName`, else the name. */
  readonly displayName: string;
}

/** Which thread, in which directory. */
export interface PluginThread {
  readonly threadId: string;
  readonly cwd: string;
}

export interface PluginsExtensionOptions {
  /** The plugins on for the thread: installed, enabled, and not switched off by it. */
  readonly activePlugins: (thread: PluginThread) => Promise<readonly ActivePlugin[]>;
  /** Plugins worth suggesting to the thread, not installed yet; none when recommendations are off. Asked once per thread. */
  readonly recommendations?: (thread: PluginThread) => Promise<readonly RecommendedPlugin[]>;
  /** Plugins the model may offer to install when there are no recommendations (`[tool_suggest] discoverables`). */
  readonly discoverable?: (thread: PluginThread) => Promise<readonly DiscoverablePlugin[]>;
  /** Whether a plugin is installed now (after the user answered a suggestion). */
  readonly isInstalled?: (id: string) => Promise<boolean>;
}

const PLUGIN_LINK = /\[@[^\]\s]+\]\(plugin:\/\/([^)\s]+)\)/g;

/** The plugin ids a turn's input mentions, in order, each once. */
export function mentionedPluginIds(input: readonly UserInput[]): string[] {
  const ids: string[] = [];
  const add = (id: string) => {
    if (!ids.includes(id)) ids.push(id);
  };
  for (const part of input) {
    if (part.type === 'text') for (const match of part.text.matchAll(PLUGIN_LINK)) add(match[1] ?? '');
    else if (part.type === 'mention' && part.path.startsWith('plugin://')) add(part.path.slice('plugin://'.length));
  }
  return ids.filter((id) => id !== '');
}

/** The developer message for a mentioned plugin. */
export function pluginMentionMessage(plugin: ActivePlugin): ResponseItem {
  const text = [`Capabilities from the \`${plugin.displayName}\` plugin:`, `- Its skills are the ones named \`${plugin.name}:…\`.`, 'Use what this plugin provides where it helps with the task.'].join('\n');
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] };
}

export function pluginsExtension(options: PluginsExtensionOptions): Extension {
  // One list per thread, shared by its context and its tools (kept in the host's session store).
  // A source that cannot be read is a warning; the thread goes on without recommendations.
  const recommendedFor = (thread: PluginThread, request: { readonly session: ExtensionData } & HostNotices): Promise<readonly RecommendedPlugin[]> => {
    const recommendations = options.recommendations;
    if (recommendations === undefined) return Promise.resolve([]);
    const key = `recommended:${thread.threadId}`;
    let list = request.session.get<Promise<readonly RecommendedPlugin[]>>(key);
    if (list === undefined) {
      list = recommendations(thread).catch((error: unknown) => {
        request.warn(`plugin recommendations are unavailable: ${(error as Error).message}`);
        return [];
      });
      request.session.set(key, list);
    }
    return list;
  };
  return defineExtension({
    id: PLUGINS_EXTENSION_ID,
    fragments: [PLUGINS_INSTRUCTIONS_FRAGMENT, RECOMMENDED_PLUGINS_FRAGMENT],
    context: {
      async threadFragments(request) {
        const thread = { threadId: request.threadId, cwd: request.cwd };
        const [active, recommended] = await Promise.all([options.activePlugins(thread), recommendedFor(thread, request)]);
        const fragments: ContextFragment[] = [];
        if (active.length > 0) fragments.push(PLUGINS_INSTRUCTIONS_FRAGMENT.render(INSTRUCTIONS));
        if (recommended.length > 0) fragments.push(renderRecommendedPlugins(recommended));
        return fragments;
      },
    },
    tools: {
      // Codex's two presentations: beside `<recommended_plugins>`, `request_plugin_install` alone (the
      // list tool hidden); otherwise, with discoverable plugins, the list tool and its request tool.
      async tools(request) {
        const isInstalled = options.isInstalled;
        if (isInstalled === undefined) return [];
        const thread = { threadId: request.threadId, cwd: request.cwd };
        const recommended = await recommendedFor(thread, request);
        if (recommended.length > 0) return [requestPluginInstallTool({ recommended, isInstalled })];
        const discoverable = (await options.discoverable?.(thread).catch((error: unknown) => {
          request.warn(`discoverable plugins are unavailable: ${(error as Error).message}`);
          return [];
        })) ?? [];
        return discoverable.length === 0 ? [] : discoverablePluginsTools({ discoverable, isInstalled });
      },
    },
    turnInput: {
      async contributeTurnInput(request) {
        const mentioned = mentionedPluginIds(request.input);
        if (mentioned.length === 0) return [];
        const active = await options.activePlugins({ threadId: request.threadId, cwd: request.cwd });
        return mentioned.flatMap((id) => {
          const plugin = active.find((candidate) => candidate.id === id);
          return plugin === undefined ? [] : [pluginMentionMessage(plugin)];
        });
      },
    },
  });
}
