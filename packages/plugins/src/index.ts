// @skein/plugins: Codex's plugin marketplaces and installed plugins, read and written as Codex does.
export { enabledPluginSkills, isPluginInstalled, PluginService } from './plugin-service.js';
export type { InstalledPlugin, InstalledPluginSkills, ListedMarketplace, ListedPlugin, PluginCatalog, PluginServiceOptions } from './plugin-service.js';
export { Marketplaces } from './marketplaces/marketplaces.js';
export type { AddedMarketplace, KnownMarketplace } from './marketplaces/marketplaces.js';
export { parseMarketplaceSource, type MarketplaceSource } from './marketplaces/marketplace-source.js';
export { MARKETPLACE_MANIFEST_PATHS, marketplaceRootOf, readMarketplace } from './manifest/marketplace-manifest.js';
export type { MarketplaceManifest, MarketplacePlugin } from './manifest/marketplace-manifest.js';
export { containedSkillRoots, PLUGIN_MANIFEST_PATHS, readPluginManifest } from './manifest/plugin-manifest.js';
export type { PluginManifest, PluginManifestJson } from './manifest/plugin-manifest.js';
export { pluginHooks, pluginMcpServerNames, type PluginHook } from './manifest/plugin-contents.js';
export { isSafeName, parsePluginId, pluginId } from './names.js';
export { PluginError, type PluginErrorCode } from './plugin-error.js';
export { installedPluginDir, marketplaceCheckoutsDir, pluginCacheDir } from './plugin-home.js';
export { mentionedPluginIds, PLUGINS_EXTENSION_ID, PLUGINS_INSTRUCTIONS_FRAGMENT, pluginsExtension } from './extension/plugins-extension.js';
export type { ActivePlugin, PluginThread, PluginsExtensionOptions } from './extension/plugins-extension.js';
export { readRecommendations, RECOMMENDATIONS_TIMEOUT_MS, type RecommendedPlugin } from './recommendations/recommendation-source.js';
export { MAX_RECOMMENDED_PLUGINS, RECOMMENDED_PLUGINS_FRAGMENT } from './recommendations/recommended-plugins-fragment.js';
export { REQUEST_PLUGIN_INSTALL_TOOL } from './recommendations/request-plugin-install-tool.js';
