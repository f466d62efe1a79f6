// Hosted web search as config.toml sets it: `web_search` (Codex's mode: `cached` by default, `live`,
// `indexed`, `disabled`), the deprecated `[features] web_search_request` / `web_search_cached`
// switches it replaces, and `[tools.web_search]` (domains, context size, the user's location).
import * as z from 'zod';
import type { Features } from '@skein/features';

export const WebSearchModeToml = z.enum(['disabled', 'cached', 'indexed', 'live']);
export type WebSearchMode = z.infer<typeof WebSearchModeToml>;

/** `[tools.web_search]`. Unknown location fields are dropped, as Codex drops them. */
export const WebSearchToolToml = z.object({
  allowed_domains: z.array(z.string()).optional(),
  context_size: z.enum(['low', 'medium', 'high']).optional(),
  location: z
    .object({ country: z.string().optional(), region: z.string().optional(), city: z.string().optional(), timezone: z.string().optional() })
    .optional(),
});
export type WebSearchToolToml = z.infer<typeof WebSearchToolToml>;

/**
 * `[tools]`. `web_search = true | false` is an older spelling Codex 0.171.0 still accepts and no
 * longer reads (the mode says whether the tool is offered); Skein accepts and ignores it the same way.
 */
export const ToolsToml = z.looseObject({ web_search: z.union([z.boolean(), WebSearchToolToml]).optional() });

/** What the hosted `web_search` tool is offered with. */
export interface WebSearchSettings {
  readonly mode: WebSearchMode;
  readonly allowedDomains: readonly string[] | undefined;
  readonly contextSize: 'low' | 'medium' | 'high' | undefined;
  readonly location: Readonly<NonNullable<WebSearchToolToml['location']>> | undefined;
}

/** The settings from the merged `web_search` and `[tools]` values and the features. */
export function webSearchSettings(mode: WebSearchMode | undefined, tools: z.infer<typeof ToolsToml> | undefined, features: Pick<Features, 'isEnabled'>): WebSearchSettings {
  const table = typeof tools?.web_search === 'object' ? tools.web_search : {};
  return {
    mode: mode ?? legacyMode(features),
    allowedDomains: table.allowed_domains,
    contextSize: table.context_size,
    location: table.location,
  };
}

/** Without `web_search`, the deprecated switches decide: live search, then the cache (the default). */
function legacyMode(features: Pick<Features, 'isEnabled'>): WebSearchMode {
  if (features.isEnabled('web_search_request')) return 'live';
  return 'cached';
}
