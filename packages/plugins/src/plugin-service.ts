// The plugins of one home: what every known marketplace offers, which of it is installed (config.toml's
// `[plugins."<plugin>@<market>"]` plus the cache), installing and uninstalling, and the installed,
// enabled plugins whose skills a host hands to the skills extension.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { writeConfigFile, type ConfigEdit, type MarketplaceSetting, type PluginSettings } from '@skein/config';
import { copyIntoCache, installedVersionDir, removeFromCache } from './install/plugin-cache.js';
import { marketplaceRootOf, readMarketplace, type MarketplaceManifest, type MarketplacePlugin } from './manifest/marketplace-manifest.js';
import { assertInside } from './manifest/inside.js';
import { readPluginManifest, type PluginManifest } from './manifest/plugin-manifest.js';
import { Marketplaces } from './marketplaces/marketplaces.js';
import { checkedName, parsePluginId, pluginId } from './names.js';
import { PluginError } from './plugin-error.js';
import { pluginCacheDir } from './plugin-home.js';

export interface PluginServiceOptions {
  /** Skein's home (`CODEX_HOME`): the cache and git checkouts live here, and `config.toml` is written here. */
  readonly home: string;
  /** The user's home, whose `.agents/plugins/marketplace.json` counts without being added; null for none. */
  readonly userHome: string | null;
  /** The plugin settings as config.toml layers give them now (read again on every call). */
  readonly settings: () => Promise<PluginSettings>;
  /** Told after config.toml was written, so a host can drop what it cached of it. */
  readonly onConfigWritten?: () => void;
}

/** One plugin of a marketplace, with what is installed of it. */
export interface ListedPlugin {
  readonly id: string;
  readonly name: string;
  readonly entry: MarketplacePlugin;
  /** The manifest in the marketplace's folder; undefined when it is missing or does not parse. */
  readonly manifest: PluginManifest | undefined;
  readonly installed: { readonly dir: string; readonly version: string; readonly installedAt: number } | undefined;
  readonly enabled: boolean;
}

/** A marketplace and its plugins. */
export interface ListedMarketplace {
  readonly manifest: MarketplaceManifest;
  /** Where config.toml says it comes from; undefined for the user's own, found rather than added. */
  readonly setting: MarketplaceSetting | undefined;
  readonly plugins: readonly ListedPlugin[];
}

export interface PluginCatalog {
  readonly marketplaces: readonly ListedMarketplace[];
  readonly loadErrors: readonly { readonly marketplacePath: string; readonly message: string }[];
}

/** An installed, enabled plugin's skill folders (the skills extension's `PluginSkillSource`). */
export interface InstalledPluginSkills {
  readonly id: string;
  readonly name: string;
  /** The manifest's `interface.displayName`, else the name. */
  readonly displayName: string;
  readonly marketplaceRoot: string;
  readonly root: string;
  readonly skillRoots: readonly string[];
}

/** `settings`' installed, enabled plugins whose cached copy is there, with their skill folders. */
export async function enabledPluginSkills(home: string, settings: PluginSettings): Promise<InstalledPluginSkills[]> {
  const sources: InstalledPluginSkills[] = [];
  for (const [id, { enabled }] of Object.entries(settings.plugins)) {
    if (!enabled) continue;
    let parsed;
    try {
      parsed = parsePluginId(id);
    } catch {
      continue;
    }
    const installed = await installedVersionDir(home, parsed.marketplace, parsed.plugin);
    if (installed === undefined) continue;
    const manifest = await readPluginManifest(installed.dir).catch(() => undefined);
    sources.push({
      id,
      name: parsed.plugin,
      displayName: manifest?.json.interface?.displayName ?? parsed.plugin,
      marketplaceRoot: path.join(pluginCacheDir(home), parsed.marketplace),
      root: installed.dir,
      skillRoots: manifest?.skillRoots ?? [path.join(installed.dir, 'skills')],
    });
  }
  return sources;
}

/** Whether `id` is installed (enabled or not): in `settings` and in the cache. */
export async function isPluginInstalled(home: string, settings: PluginSettings, id: string): Promise<boolean> {
  if (settings.plugins[id] === undefined) return false;
  const { plugin, marketplace } = parsePluginId(id);
  return (await installedVersionDir(home, marketplace, plugin)) !== undefined;
}

/** What `install` did. */
export interface InstalledPlugin {
  readonly pluginId: string;
  readonly name: string;
  readonly marketplaceName: string;
  readonly version: string;
  readonly installedPath: string;
  readonly authPolicy: 'ON_INSTALL' | 'ON_USE';
}

export class PluginService {
  readonly marketplaces: Marketplaces;
  readonly #options: PluginServiceOptions;
  /** Installs and uninstalls of one plugin, one after the other (by `<marketplace>/<plugin>`). */
  readonly #pluginQueues = new Map<string, Promise<unknown>>();

  constructor(options: PluginServiceOptions) {
    this.#options = options;
    this.marketplaces = new Marketplaces({ home: options.home, userHome: options.userHome, settings: options.settings, writeConfig: (edits) => this.#writeConfig(edits) });
  }

  /** The manifest file of the marketplace named `name` (configured, or the user's own). */
  async marketplacePathOf(name: string): Promise<string> {
    for (const known of await this.marketplaces.known()) {
      const manifest = await readMarketplace(known.root).catch(() => undefined);
      if (manifest !== undefined && (known.name ?? manifest.name) === name) return manifest.file;
    }
    throw new PluginError('NotFound', `marketplace \`${name}\` is not configured or installed`);
  }

  /** Every known marketplace with its plugins; one that cannot be read is reported, not fatal. */
  async list(): Promise<PluginCatalog> {
    const settings = await this.#options.settings();
    const marketplaces: ListedMarketplace[] = [];
    const loadErrors: { marketplacePath: string; message: string }[] = [];
    const seen = new Set<string>();
    for (const known of await this.marketplaces.known()) {
      let manifest: MarketplaceManifest;
      try {
        manifest = await readMarketplace(known.root);
      } catch (error) {
        // The user's own folder may simply have no marketplace.
        if (known.setting === undefined) continue;
        loadErrors.push({ marketplacePath: path.join(known.root, '.agents', 'plugins', 'marketplace.json'), message: (error as Error).message });
        continue;
      }
      const name = known.name ?? manifest.name;
      if (seen.has(name)) continue;
      seen.add(name);
      const plugins = await Promise.all(manifest.plugins.map((entry) => this.#listed(manifest.root, name, entry, settings)));
      marketplaces.push({ manifest: { ...manifest, name }, setting: known.setting, plugins });
    }
    return { marketplaces, loadErrors };
  }

  /** Only what is installed, by marketplace (marketplaces with nothing installed are left out). */
  async installed(): Promise<PluginCatalog> {
    const catalog = await this.list();
    return {
      marketplaces: catalog.marketplaces.map((market) => ({ ...market, plugins: market.plugins.filter((plugin) => plugin.installed !== undefined) })).filter((market) => market.plugins.length > 0),
      loadErrors: catalog.loadErrors,
    };
  }

  /** Plugins whose name, description, keywords or category contain `term` (case-insensitive). */
  async search(term: string): Promise<{ readonly marketplace: MarketplaceManifest; readonly plugin: ListedPlugin }[]> {
    const needle = term.trim().toLowerCase();
    const found: { marketplace: MarketplaceManifest; plugin: ListedPlugin }[] = [];
    for (const market of (await this.list()).marketplaces) {
      for (const plugin of market.plugins) {
        const face = plugin.manifest?.json.interface;
        const haystack = [plugin.name, plugin.manifest?.json.description, face?.displayName, face?.shortDescription, face?.longDescription, plugin.entry.category ?? face?.category, ...plugin.entry.keywords, ...(plugin.manifest?.json.keywords ?? [])];
        if (haystack.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle))) found.push({ marketplace: market.manifest, plugin });
      }
    }
    return found;
  }

  /** One plugin of the marketplace whose manifest is `marketplacePath`, with its manifest read. */
  async read(pluginName: string, marketplacePath: string): Promise<{ readonly marketplace: MarketplaceManifest; readonly plugin: ListedPlugin & { readonly manifest: PluginManifest } }> {
    const { marketplace, entry } = await this.#find(pluginName, marketplacePath);
    const plugin = await this.#listed(marketplace.root, marketplace.name, entry, await this.#options.settings());
    if (plugin.manifest === undefined) throw new PluginError('InvalidManifest', 'missing or invalid plugin.json');
    return { marketplace, plugin: { ...plugin, manifest: plugin.manifest } };
  }

  /** Installs (or installs again) a plugin of the marketplace at `marketplacePath` and switches it on. */
  async install(pluginName: string, marketplacePath: string): Promise<InstalledPlugin> {
    const { marketplace, entry } = await this.#find(pluginName, marketplacePath);
    return this.#queued(marketplace.name, entry.name, () => this.#install(marketplace, entry));
  }

  async #install(marketplace: MarketplaceManifest, entry: MarketplacePlugin): Promise<InstalledPlugin> {
    if (entry.installPolicy === 'NOT_AVAILABLE') throw new PluginError('InvalidRequest', `plugin \`${entry.name}\` is not available for install in marketplace \`${marketplace.name}\``);
    // Resolved through links first: a plugin folder (or a folder above it) that is a link could
    // otherwise copy anything it points at into the cache.
    const folder = await assertInside(marketplace.root, entry.sourcePath).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new PluginError('InvalidManifest', `missing plugin.json: plugin folder ${entry.sourcePath} does not exist`, { cause: error });
      throw error;
    });
    const manifest = await readPluginManifest(folder);
    if (manifest.json.name !== entry.name) throw new PluginError('InvalidManifest', `plugin.json name \`${manifest.json.name}\` does not match marketplace plugin name \`${entry.name}\``);
    const installedPath = await copyIntoCache(this.#options.home, marketplace.name, entry.name, manifest.json.version, folder);
    const id = pluginId(entry.name, marketplace.name);
    await this.#writeConfig([{ keyPath: ['plugins', id], value: { enabled: true }, mergeStrategy: 'upsert' }]);
    return { pluginId: id, name: entry.name, marketplaceName: marketplace.name, version: path.basename(installedPath), installedPath, authPolicy: entry.authPolicy };
  }

  /** Removes a plugin's config entry and cached copy; uninstalling what is not installed is not an error. */
  async uninstall(id: string): Promise<void> {
    const { plugin, marketplace } = parsePluginId(id);
    await this.#queued(marketplace, plugin, async () => {
      if ((await this.#options.settings()).plugins[id] !== undefined) await this.#writeConfig([{ keyPath: ['plugins', id], value: null, mergeStrategy: 'replace' }]);
      await removeFromCache(this.#options.home, marketplace, plugin);
    });
  }

  /** Runs `work` after every earlier install or uninstall of the same plugin has settled. */
  #queued<T>(marketplace: string, plugin: string, work: () => Promise<T>): Promise<T> {
    const key = `${marketplace}/${plugin}`;
    const run = (this.#pluginQueues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => undefined);
    this.#pluginQueues.set(key, settled);
    void settled.then(() => {
      if (this.#pluginQueues.get(key) === settled) this.#pluginQueues.delete(key);
    });
    return run;
  }

  /** Installed, enabled plugins whose cached copy is there, with their skill folders. */
  async enabledSkillSources(): Promise<InstalledPluginSkills[]> {
    return enabledPluginSkills(this.#options.home, await this.#options.settings());
  }

  async #writeConfig(edits: readonly ConfigEdit[]): Promise<void> {
    await writeConfigFile(path.join(this.#options.home, 'config.toml'), edits);
    this.#options.onConfigWritten?.();
  }

  /** A plugin as listed; its manifest is read only when its folder resolves inside the marketplace. */
  async #listed(marketplaceRoot: string, marketplaceName: string, entry: MarketplacePlugin, settings: PluginSettings): Promise<ListedPlugin> {
    const id = pluginId(entry.name, marketplaceName);
    const configured = settings.plugins[id];
    const installed = configured === undefined ? undefined : await installedVersionDir(this.#options.home, marketplaceName, entry.name);
    const manifest = await assertInside(marketplaceRoot, entry.sourcePath).then(readPluginManifest).catch(() => undefined);
    return { id, name: entry.name, entry, manifest, installed, enabled: installed !== undefined && configured?.enabled === true };
  }

  /** The marketplace at `marketplacePath` (its manifest file) and its entry named `pluginName`. */
  async #find(pluginName: string, marketplacePath: string): Promise<{ readonly marketplace: MarketplaceManifest; readonly entry: MarketplacePlugin }> {
    const exists = await stat(marketplacePath).then(() => true, () => false);
    const root = marketplaceRootOf(marketplacePath);
    if (!exists || root === undefined) throw new PluginError('NotFound', `marketplace file \`${marketplacePath}\` does not exist`);
    const read = await readMarketplace(root);
    // A configured marketplace is known by its configured name (the checkout's folder name).
    const configured = (await this.marketplaces.known()).filter((candidate) => candidate.name !== undefined);
    const known = configured.find((candidate) => path.resolve(candidate.root) === path.resolve(root));
    const marketplace = known?.name === undefined ? read : { ...read, name: known.name };
    checkedName(marketplace.name, 'marketplace');
    // Plugins are cached and enabled by `<plugin>@<marketplace name>`: another folder calling itself
    // a configured marketplace's name would replace that marketplace's installed plugins.
    const namesake = known === undefined ? configured.find((candidate) => candidate.name === marketplace.name) : undefined;
    if (namesake !== undefined) {
      throw new PluginError('InvalidRequest', `marketplace \`${marketplace.name}\` is configured at \`${namesake.root}\`; \`${root}\` calls itself the same name, so it cannot install into it (install from the configured marketplace, or rename this one)`);
    }
    const entry = marketplace.plugins.find((candidate) => candidate.name === pluginName);
    if (entry === undefined) throw new PluginError('NotFound', `plugin \`${pluginName}\` was not found in marketplace \`${marketplace.name}\``);
    return { marketplace, entry };
  }
}
