// Plugins and their marketplaces: `marketplace/add|remove|upgrade` and
// `plugin/list|read|install|uninstall|installed|search`, as Codex 0.171.0's app-server carries them.
// Params are checked here; answers are the types the server builds.
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';
import { lazySchema } from '../lazy-schema.js';
import type { SkillMetadata } from './skills-list.js';

/** `marketplace/add`: a local folder or a git URL (`owner/repo` is GitHub's), at a ref. */
export const MarketplaceAddParams = lazySchema(() => z.object({
  source: z.string().min(1, { error: 'source must not be empty' }),
  refName: z.string().min(1).nullish(),
  sparsePaths: z.array(z.string()).nullish(),
}));
export type MarketplaceAddParams = z.infer<typeof MarketplaceAddParams>;

export interface MarketplaceAddResponse {
  readonly marketplaceName: string;
  readonly installedRoot: string;
  readonly alreadyAdded: boolean;
}

export const MarketplaceRemoveParams = lazySchema(() => z.object({ marketplaceName: z.string().min(1) }));
export type MarketplaceRemoveParams = z.infer<typeof MarketplaceRemoveParams>;

export interface MarketplaceRemoveResponse {
  readonly marketplaceName: string;
  readonly installedRoot: string | null;
}

/** `marketplace/upgrade`: one marketplace, or every git one when no name is given. */
export const MarketplaceUpgradeParams = lazySchema(() => z.object({ marketplaceName: z.string().min(1).nullish() }).nullish());
export type MarketplaceUpgradeParams = z.infer<typeof MarketplaceUpgradeParams>;

export interface MarketplaceUpgradeResponse {
  readonly selectedMarketplaces: readonly string[];
  readonly upgradedRoots: readonly string[];
  readonly errors: readonly { readonly marketplaceName: string; readonly message: string }[];
}

export const PluginListMarketplaceKind = lazySchema(() => z.enum(['local', 'vertical', 'workspace-directory', 'shared-with-me', 'created-by-me-remote']));
export type PluginListMarketplaceKind = z.infer<typeof PluginListMarketplaceKind>;

/** `plugin/list`: every marketplace's plugins (working directories add their repo marketplaces). */
export const PluginListParams = lazySchema(() => z.object({
  cwds: z.array(AbsolutePath).nullish(),
  forceRefetch: z.boolean().optional(),
  marketplaceKinds: z.array(PluginListMarketplaceKind).nullish(),
}).nullish());
export type PluginListParams = z.infer<typeof PluginListParams>;

/** `plugin/read`: one plugin of a marketplace, by the marketplace's manifest path. */
export const PluginReadParams = lazySchema(() => z.object({
  pluginName: z.string().min(1),
  marketplacePath: AbsolutePath.nullish(),
  remoteMarketplaceName: z.string().nullish(),
}));
export type PluginReadParams = z.infer<typeof PluginReadParams>;

export const PluginInstallParams = lazySchema(() => z.object({
  pluginName: z.string().min(1),
  marketplacePath: AbsolutePath.nullish(),
  remoteMarketplaceName: z.string().nullish(),
  installAttemptId: z.string().nullish(),
}));
export type PluginInstallParams = z.infer<typeof PluginInstallParams>;

/** `plugin/uninstall`: by id, `<plugin>@<marketplace>`. */
export const PluginUninstallParams = lazySchema(() => z.object({ pluginId: z.string().min(1) }));
export type PluginUninstallParams = z.infer<typeof PluginUninstallParams>;

export const PluginSearchParams = lazySchema(() => z.object({
  searchTerm: z.string(),
  cwds: z.array(AbsolutePath).nullish(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
  scope: z.enum(['global', 'workspace', 'personal']).nullish(),
}));
export type PluginSearchParams = z.infer<typeof PluginSearchParams>;

export type PluginSource =
  | { readonly type: 'local'; readonly path: string }
  | { readonly type: 'git'; readonly url: string; readonly path?: string | null; readonly refName?: string | null; readonly sha?: string | null };

/** What a plugin's manifest says about how clients show it (`interface` in `plugin.json`). */
export interface PluginInterface {
  readonly displayName?: string | null;
  readonly shortDescription?: string | null;
  readonly longDescription?: string | null;
  readonly developerName?: string | null;
  readonly category?: string | null;
  readonly capabilities: readonly string[];
  readonly websiteUrl?: string | null;
  readonly privacyPolicyUrl?: string | null;
  readonly termsOfServiceUrl?: string | null;
  readonly defaultPrompt?: readonly string[] | null;
  readonly brandColor?: string | null;
  readonly composerIcon?: string | null;
  readonly logo?: string | null;
  readonly screenshots: readonly string[];
  readonly screenshotUrls: readonly string[];
}

export interface PluginSummary {
  /** `<plugin>@<marketplace>`. */
  readonly id: string;
  readonly name: string;
  readonly source: PluginSource;
  readonly installed: boolean;
  readonly enabled: boolean;
  readonly installPolicy: 'NOT_AVAILABLE' | 'AVAILABLE' | 'INSTALLED_BY_DEFAULT';
  readonly authPolicy: 'ON_INSTALL' | 'ON_USE';
  readonly availability: 'AVAILABLE' | 'DISABLED_BY_ADMIN';
  readonly interface: PluginInterface | null;
  readonly keywords: readonly string[];
  readonly version: string | null;
  readonly localVersion: string | null;
  readonly installedAt: number | null;
}

export interface PluginMarketplaceEntry {
  readonly name: string;
  /** The marketplace's manifest file; null for one that has none on this machine. */
  readonly path: string | null;
  readonly interface: { readonly displayName?: string | null } | null;
  readonly plugins: readonly PluginSummary[];
}

export interface MarketplaceLoadErrorInfo {
  readonly marketplacePath: string;
  readonly message: string;
}

export interface PluginListResponse {
  readonly marketplaces: readonly PluginMarketplaceEntry[];
  readonly marketplaceLoadErrors: readonly MarketplaceLoadErrorInfo[];
  readonly featuredPluginIds: readonly string[];
}

export type PluginInstalledResponse = Omit<PluginListResponse, 'featuredPluginIds'>;

export interface PluginHookSummary {
  readonly key: string;
  readonly eventName: string;
}

export interface PluginDetail {
  readonly marketplaceName: string;
  readonly marketplacePath: string | null;
  readonly summary: PluginSummary;
  readonly description: string | null;
  readonly skills: readonly SkillMetadata[];
  /** Shipped by the plugin but not started by Skein: listed so a user sees them. */
  readonly mcpServers: readonly string[];
  readonly hooks: readonly PluginHookSummary[];
  readonly apps: readonly never[];
  readonly appTemplates: readonly never[];
}

export interface PluginInstallResponse {
  readonly authPolicy: 'ON_INSTALL' | 'ON_USE';
  readonly appsNeedingAuth: readonly never[];
}

export interface PluginSearchResponse {
  readonly data: readonly { readonly marketplaceName: string; readonly marketplacePath: string | null; readonly plugin: PluginSummary }[];
  readonly nextCursor: string | null;
}
