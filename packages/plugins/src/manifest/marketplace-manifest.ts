// A marketplace's manifest, `<root>/.agents/plugins/marketplace.json` (Codex's) or
// `<root>/.claude-plugin/marketplace.json` (Claude's, whose plugin `source` is a bare path): its
// name, how clients show it, and its plugins with the folder each is installed from.
import path from 'node:path';
import * as z from 'zod';
import { isSafeName } from '../names.js';
import { PluginError } from '../plugin-error.js';
import { readJsonFile } from './read-json-file.js';
import { beneath, RelativeManifestPath } from './relative-path.js';

/** Where a marketplace's manifest is looked for under its root, first match wins. */
export const MARKETPLACE_MANIFEST_PATHS = ['.agents/plugins/marketplace.json', '.claude-plugin/marketplace.json'] as const;

const SafeName = z.string().refine(isSafeName, { error: 'must be a name of letters, digits, `-`, `_` and inner dots' });

// A source is checked per entry below: one with a path outside the marketplace is left out, as Codex
// leaves it out, rather than failing the whole marketplace.
const PluginEntryJson = z.looseObject({
  name: SafeName,
  source: z.union([z.string(), z.looseObject({ source: z.string(), path: z.string() })]),
  policy: z
    .looseObject({
      installation: z.enum(['NOT_AVAILABLE', 'AVAILABLE', 'INSTALLED_BY_DEFAULT']).optional(),
      authentication: z.enum(['ON_INSTALL', 'ON_USE']).optional(),
    })
    .optional(),
  category: z.string().nullish(),
  keywords: z.array(z.string()).optional(),
});

// Entries are checked one by one below: one Skein cannot install (a source of another kind, a path
// outside the marketplace, an unsafe name) is left out, and the marketplace's other plugins still list.
export const MarketplaceManifestJson = z.looseObject({
  name: SafeName,
  interface: z.looseObject({ displayName: z.string().nullish() }).nullish(),
  // Every entry names a plugin and a source (Codex refuses the marketplace otherwise).
  plugins: z.array(z.looseObject({ name: z.string(), source: z.unknown().refine((source) => source !== undefined, { error: 'missing field `source`' }) })),
});

/** One plugin a marketplace offers. */
export interface MarketplacePlugin {
  readonly name: string;
  /** The folder it installs from. */
  readonly sourcePath: string;
  readonly installPolicy: 'NOT_AVAILABLE' | 'AVAILABLE' | 'INSTALLED_BY_DEFAULT';
  readonly authPolicy: 'ON_INSTALL' | 'ON_USE';
  /** The marketplace's category, which wins over the plugin's own. */
  readonly category: string | undefined;
  readonly keywords: readonly string[];
}

/** A marketplace's manifest, read. */
export interface MarketplaceManifest {
  readonly name: string;
  readonly displayName: string | undefined;
  readonly root: string;
  /** The manifest file (what `plugin/read` and `plugin/install` name a marketplace by). */
  readonly file: string;
  readonly plugins: readonly MarketplacePlugin[];
}

/** The marketplace at `root`; `InvalidManifest` when it has none or it does not parse. */
export async function readMarketplace(root: string): Promise<MarketplaceManifest> {
  for (const relative of MARKETPLACE_MANIFEST_PATHS) {
    const file = path.join(root, relative);
    const json = await readJsonFile(file, MarketplaceManifestJson, root);
    if (json === undefined) continue;
    const seen = new Set<string>();
    const plugins = json.plugins.flatMap((raw): MarketplacePlugin[] => {
      const parsed = PluginEntryJson.safeParse(raw);
      if (!parsed.success || seen.has(parsed.data.name)) return [];
      const entry = parsed.data;
      seen.add(entry.name);
      const relative = typeof entry.source === 'string' ? entry.source : entry.source.source === 'local' ? entry.source.path : undefined;
      if (relative === undefined || !RelativeManifestPath.safeParse(relative).success) return [];
      return [{
        name: entry.name,
        sourcePath: beneath(root, relative),
        installPolicy: entry.policy?.installation ?? 'AVAILABLE',
        authPolicy: entry.policy?.authentication ?? 'ON_INSTALL',
        category: entry.category ?? undefined,
        keywords: entry.keywords ?? [],
      }];
    });
    return { name: json.name, displayName: json.interface?.displayName ?? undefined, root, file, plugins };
  }
  throw new PluginError('InvalidManifest', `invalid marketplace file \`${root}\`: marketplace root does not contain a supported manifest`);
}

/** The root of the marketplace whose manifest is `file`, or undefined when it is no manifest path. */
export function marketplaceRootOf(file: string): string | undefined {
  const normal = path.normalize(file);
  for (const relative of MARKETPLACE_MANIFEST_PATHS) {
    const suffix = `${path.sep}${relative.split('/').join(path.sep)}`;
    if (normal.endsWith(suffix)) return normal.slice(0, -suffix.length) || path.sep;
  }
  return undefined;
}
