// The plugin service's records as Codex's app-server answers them (`PluginSummary`,
// `PluginMarketplaceEntry`): fields Skein has no source for (remote catalogs, sharing, plans) are
// null or empty, as Codex's own answers are for a local marketplace.
import path from 'node:path';
import type { ListedMarketplace, ListedPlugin, MarketplaceManifest, PluginManifest } from '@skein/plugins';
import type { PluginInterface, PluginMarketplaceEntry, PluginSummary } from '@skein/protocol';

export function pluginSummary(plugin: ListedPlugin): PluginSummary & Record<string, unknown> {
  return {
    id: plugin.id,
    remotePluginId: null,
    // A local marketplace's plugins have no catalog version; the one on this machine is `localVersion`.
    version: null,
    localVersion: plugin.installed?.version ?? plugin.manifest?.json.version ?? null,
    name: plugin.name,
    shareContext: null,
    source: { type: 'local', path: plugin.entry.sourcePath },
    installed: plugin.installed !== undefined,
    installedAt: null,
    enabled: plugin.enabled,
    installPolicy: plugin.entry.installPolicy,
    installPolicySource: null,
    mustShowInstallationInterstitial: null,
    authPolicy: plugin.entry.authPolicy,
    availability: 'AVAILABLE',
    disabledReason: null,
    eligiblePlanTypes: null,
    interface: plugin.manifest === undefined ? null : pluginInterface(plugin.manifest, plugin.entry.category),
    keywords: [...plugin.entry.keywords, ...(plugin.manifest?.json.keywords ?? [])],
  };
}

/** The manifest's `interface`; the marketplace's category wins over the plugin's own. */
function pluginInterface(manifest: PluginManifest, marketplaceCategory: string | undefined): (PluginInterface & Record<string, unknown>) | null {
  const face = manifest.json.interface;
  if (face === undefined) return null;
  // Icons and screenshots are files of the plugin: answered as absolute paths inside it, never outside.
  const file = (relative: string | null | undefined) => {
    if (typeof relative !== 'string' || relative === '') return null;
    const resolved = path.resolve(manifest.root, relative);
    return resolved.startsWith(`${manifest.root}${path.sep}`) ? resolved : null;
  };
  return {
    displayName: face.displayName ?? null,
    shortDescription: face.shortDescription ?? null,
    longDescription: face.longDescription ?? null,
    developerName: face.developerName ?? null,
    category: marketplaceCategory ?? face.category ?? null,
    capabilities: face.capabilities ?? [],
    websiteUrl: face.websiteUrl ?? null,
    privacyPolicyUrl: face.privacyPolicyUrl ?? null,
    termsOfServiceUrl: face.termsOfServiceUrl ?? null,
    defaultPrompt: face.defaultPrompt === undefined || face.defaultPrompt === null ? null : typeof face.defaultPrompt === 'string' ? [face.defaultPrompt] : face.defaultPrompt,
    brandColor: face.brandColor ?? null,
    composerIcon: file(face.composerIcon),
    composerIconUrl: null,
    logo: file(face.logo),
    logoDark: null,
    logoUrl: null,
    logoUrlDark: null,
    screenshots: (face.screenshots ?? []).flatMap((shot) => file(shot) ?? []),
    screenshotUrls: [],
  };
}

export function marketplaceEntry(market: ListedMarketplace): PluginMarketplaceEntry {
  return { name: market.manifest.name, path: market.manifest.file, interface: marketplaceInterface(market.manifest), plugins: market.plugins.map(pluginSummary) };
}

export function marketplaceInterface(manifest: MarketplaceManifest): { readonly displayName: string } | null {
  return manifest.displayName === undefined ? null : { displayName: manifest.displayName };
}
