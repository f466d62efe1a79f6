// Plugin marketplaces and installed plugins as config.toml records them (Codex's own tables, which
// `codex plugin marketplace add` and `codex plugin add` write):
//
//   [marketplaces.<name>]            source_type = "local" | "git", source, ref?, sparse_paths?
//   [plugins."<plugin>@<market>"]    enabled = true | false
import * as z from 'zod';

export const MarketplaceToml = z.looseObject({
  source_type: z.enum(['local', 'git']),
  source: z.string().min(1),
  ref: z.string().min(1).optional(),
  sparse_paths: z.array(z.string().min(1)).optional(),
});
export type MarketplaceToml = z.infer<typeof MarketplaceToml>;

export const PluginToml = z.looseObject({ enabled: z.boolean().optional() });
export type PluginToml = z.infer<typeof PluginToml>;

export const ToolSuggestToml = z.looseObject({
  discoverables: z.array(z.looseObject({ type: z.enum(['plugin', 'connector']), id: z.string().min(1) })).optional(),
});
export type ToolSuggestToml = z.infer<typeof ToolSuggestToml>;

/** One configured marketplace. */
export interface MarketplaceSetting {
  readonly sourceType: 'local' | 'git';
  readonly source: string;
  readonly ref: string | undefined;
  readonly sparsePaths: readonly string[];
}

/** What the config says about plugins: marketplaces by name, installed plugins by id with whether they are on. */
export interface PluginSettings {
  readonly marketplaces: Readonly<Record<string, MarketplaceSetting>>;
  readonly plugins: Readonly<Record<string, { readonly enabled: boolean }>>;
  /** `[skein] plugin_recommendations`: where recommendations are read (with the `recommended_plugins` feature). */
  readonly recommendations: string | undefined;
  /** `[tool_suggest] discoverables` of type `plugin`: ids the model may suggest installing (with the `tool_suggest` feature). */
  readonly discoverable: readonly string[];
}

export function pluginSettings(
  marketplaces: Readonly<Record<string, MarketplaceToml>> | undefined,
  plugins: Readonly<Record<string, PluginToml>> | undefined,
  recommendations?: string,
  toolSuggest?: ToolSuggestToml,
): PluginSettings {
  return {
    recommendations,
    // Connectors are ChatGPT apps, which Skein has none of.
    discoverable: (toolSuggest?.discoverables ?? []).filter((entry) => entry.type === 'plugin').map((entry) => entry.id),
    marketplaces: Object.fromEntries(
      Object.entries(marketplaces ?? {}).map(([name, table]) => [name, { sourceType: table.source_type, source: table.source, ref: table.ref, sparsePaths: table.sparse_paths ?? [] }]),
    ),
    // An entry without `enabled` is installed and on, as Codex reads it.
    plugins: Object.fromEntries(Object.entries(plugins ?? {}).map(([id, table]) => [id, { enabled: table.enabled ?? true }])),
  };
}
