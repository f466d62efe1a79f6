// `plugin/list|read|install|uninstall|installed|search` and `marketplace/add|remove|upgrade`, served
// by the home's plugin service. Refusals are -32600 with the service's message (as Codex's are);
// writes to config.toml go through the server's config changes, so later reads see them.
import {
  MarketplaceAddParams,
  MarketplaceRemoveParams,
  MarketplaceUpgradeParams,
  PluginInstallParams,
  PluginInstalledParams,
  PluginListParams,
  PluginReadParams,
  PluginSearchParams,
  PluginUninstallParams,
  type MarketplaceAddResponse,
  type MarketplaceRemoveResponse,
  type MarketplaceUpgradeResponse,
  type PluginInstallResponse,
  type PluginInstalledResponse,
  type PluginListResponse,
  type PluginSearchResponse,
} from '@skein/protocol';
import { PluginError, type PluginService } from '@skein/plugins';
import type { AppServer } from '../app-server.js';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { readPluginDetail } from '../plugins/plugin-detail.js';
import { marketplaceEntry, pluginSummary } from '../plugins/plugin-wire.js';

const SEARCH_PAGE = 50;

function pluginsOf(server: AppServer): PluginService {
  const plugins = server.plugins;
  if (plugins === undefined) refuse('plugins are not available on this server');
  return plugins;
}

/** Runs `work`, answering a plugin refusal as -32600 with its message. */
async function served<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PluginError) refuse(error.message);
    throw error;
  }
}

/**
 * Runs `change` (which may write config.toml), then has the server read its config again. The work
 * itself (a clone, a copy) runs outside the server's queue of config changes, so a slow one does not
 * hold up other writes; the file's own writes are serialised by the config writer.
 */
async function changing<T>(server: AppServer, change: () => Promise<T>): Promise<T> {
  try {
    return await served(change);
  } finally {
    await server.changeConfig(() => undefined);
  }
}

/** The one marketplace a `plugin/read` or `plugin/install` names: a manifest path (remote catalogs are not Skein's). */
function marketplacePathOf(method: string, params: { readonly marketplacePath?: string | null | undefined; readonly remoteMarketplaceName?: string | null | undefined }): string {
  const local = params.marketplacePath ?? undefined;
  const remote = params.remoteMarketplaceName ?? undefined;
  if ((local === undefined) === (remote === undefined)) refuse(`${method} requires exactly one of marketplacePath or remoteMarketplaceName`);
  if (local === undefined) refuse(`remote marketplace \`${remote}\` is not available: Skein reads local and git marketplaces only`);
  return local;
}

export const PLUGIN_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'plugin/list',
    defineMethod({
      params: PluginListParams,
      async handle(_params, { server }): Promise<PluginListResponse> {
        // A server without the plugin service (an embedder's) answers as Codex does with nothing set up.
        if (server.plugins === undefined) return { marketplaces: [], marketplaceLoadErrors: [], featuredPluginIds: [] };
        const catalog = await served(() => pluginsOf(server).list());
        return { marketplaces: catalog.marketplaces.map(marketplaceEntry), marketplaceLoadErrors: catalog.loadErrors, featuredPluginIds: [] };
      },
    }),
  ],
  [
    'plugin/installed',
    defineMethod({
      params: PluginInstalledParams,
      async handle(_params, { server }): Promise<PluginInstalledResponse> {
        // Codex's TUI asks at start-up; nothing set up is an empty answer, not an error.
        if (server.plugins === undefined) return { marketplaces: [], marketplaceLoadErrors: [] };
        const catalog = await served(() => pluginsOf(server).installed());
        return { marketplaces: catalog.marketplaces.map(marketplaceEntry), marketplaceLoadErrors: catalog.loadErrors };
      },
    }),
  ],
  [
    'plugin/search',
    defineMethod({
      params: PluginSearchParams,
      async handle(params, { server }): Promise<PluginSearchResponse> {
        const found = await served(() => pluginsOf(server).search(params.searchTerm));
        const start = params.cursor == null ? 0 : Number.parseInt(params.cursor, 10);
        if (!Number.isSafeInteger(start) || start < 0) refuse(`invalid cursor: ${params.cursor}`);
        const limit = params.limit ?? SEARCH_PAGE;
        const page = found.slice(start, start + limit);
        return {
          data: page.map((hit) => ({ marketplaceName: hit.marketplace.name, marketplacePath: hit.marketplace.file, plugin: pluginSummary(hit.plugin) })),
          nextCursor: start + limit < found.length ? String(start + limit) : null,
        };
      },
    }),
  ],
  [
    'plugin/read',
    defineMethod({
      params: PluginReadParams,
      async handle(params, { server }) {
        const marketplacePath = marketplacePathOf('plugin/read', params);
        return { plugin: await served(() => readPluginDetail(pluginsOf(server), server.skills, params.pluginName, marketplacePath)) };
      },
    }),
  ],
  [
    'plugin/install',
    defineMethod({
      params: PluginInstallParams,
      async handle(params, { server }): Promise<PluginInstallResponse> {
        const marketplacePath = marketplacePathOf('plugin/install', params);
        const installed = await changing(server, () => pluginsOf(server).install(params.pluginName, marketplacePath));
        return { authPolicy: installed.authPolicy, appsNeedingAuth: [] };
      },
    }),
  ],
  [
    'plugin/uninstall',
    defineMethod({
      params: PluginUninstallParams,
      async handle(params, { server }): Promise<Record<string, never>> {
        await changing(server, () => pluginsOf(server).uninstall(params.pluginId));
        return {};
      },
    }),
  ],
  [
    'marketplace/add',
    defineMethod({
      params: MarketplaceAddParams,
      async handle(params, { server }): Promise<MarketplaceAddResponse> {
        const options = { cwd: server.config.config.cwd, ref: params.refName ?? undefined, sparsePaths: params.sparsePaths ?? undefined };
        return changing(server, () => pluginsOf(server).marketplaces.add(params.source, options));
      },
    }),
  ],
  [
    'marketplace/remove',
    defineMethod({
      params: MarketplaceRemoveParams,
      async handle(params, { server }): Promise<MarketplaceRemoveResponse> {
        return changing(server, () => pluginsOf(server).marketplaces.remove(params.marketplaceName));
      },
    }),
  ],
  [
    'marketplace/upgrade',
    defineMethod({
      params: MarketplaceUpgradeParams,
      async handle(params, { server }): Promise<MarketplaceUpgradeResponse> {
        return served(() => pluginsOf(server).marketplaces.upgrade(params?.marketplaceName ?? undefined));
      },
    }),
  ],
]);
