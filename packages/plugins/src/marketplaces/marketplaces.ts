// The marketplaces a home knows: those config.toml names (`[marketplaces.<name>]`, a local folder or
// a git checkout under `<home>/.tmp/marketplaces/<name>`) and the user's own
// `~/.agents/plugins/marketplace.json`, found without being added. Adding, removing and upgrading
// change config.toml in place (comments kept) and the checkouts beside it.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigEdit, MarketplaceSetting, PluginSettings } from '@skein/config';
import { readMarketplace, type MarketplaceManifest } from '../manifest/marketplace-manifest.js';
import { checkedName, isSafeName } from '../names.js';
import { PluginError } from '../plugin-error.js';
import { marketplaceCheckoutsDir } from '../plugin-home.js';
import { cloneMarketplace } from './git.js';
import { parseMarketplaceSource } from './marketplace-source.js';

/** A marketplace as the home knows it, before its manifest is read. */
export interface KnownMarketplace {
  /** The configured name; undefined for one found rather than configured (its manifest names it). */
  readonly name: string | undefined;
  /** The folder its manifest is under. */
  readonly root: string;
  /** undefined for one found rather than configured. */
  readonly setting: MarketplaceSetting | undefined;
}

/** What `add` did. */
export interface AddedMarketplace {
  readonly marketplaceName: string;
  readonly installedRoot: string;
  readonly alreadyAdded: boolean;
}

/** Written beside a git checkout after an upgrade: where it came from and at which commit. */
const INSTALL_RECORD = '.codex-marketplace-install.json';

export interface MarketplaceHost {
  readonly home: string;
  /** The user's home, whose `.agents/plugins/marketplace.json` is found without being added; null for none. */
  readonly userHome: string | null;
  readonly settings: () => Promise<PluginSettings>;
  readonly writeConfig: (edits: readonly ConfigEdit[]) => Promise<void>;
}

/** The marketplaces of one home. */
export class Marketplaces {
  constructor(private readonly host: MarketplaceHost) {}

  /** Configured marketplaces, then the user's own (whose folder may have no manifest). */
  async known(): Promise<KnownMarketplace[]> {
    const { marketplaces } = await this.host.settings();
    // A name that could not be a folder is no marketplace (it would name a path outside the checkouts).
    const known: KnownMarketplace[] = Object.entries(marketplaces)
      .filter(([name]) => isSafeName(name))
      .map(([name, setting]) => ({ name, setting, root: this.rootOf(name, setting) }));
    if (this.host.userHome !== null) known.push({ name: undefined, root: this.host.userHome, setting: undefined });
    return known;
  }

  /** Where `setting`'s marketplace is on disk. */
  rootOf(name: string, setting: MarketplaceSetting): string {
    return setting.sourceType === 'local' ? setting.source : this.#checkoutOf(name);
  }

  /** `<home>/.tmp/marketplaces/<name>`, for a name that is one folder (`InvalidRequest` otherwise). */
  #checkoutOf(name: string): string {
    return path.join(marketplaceCheckoutsDir(this.host.home), checkedName(name, 'marketplace'));
  }

  /** Adds the marketplace at `source` (a folder or a git URL), named by its manifest. */
  async add(source: string, options: { readonly cwd: string; readonly ref?: string | undefined; readonly sparsePaths?: readonly string[] | undefined }): Promise<AddedMarketplace> {
    const parsed = parseMarketplaceSource(source, options.cwd);
    const ref = parsed.kind === 'git' ? (options.ref ?? parsed.ref) : options.ref;
    if (ref !== undefined && ref.startsWith('-')) throw new PluginError('InvalidRequest', `invalid git ref \`${ref}\``);
    const sparsePaths = options.sparsePaths ?? [];
    if (parsed.kind === 'local') {
      if (ref !== undefined) throw new PluginError('InvalidRequest', '--ref is only supported for git marketplace sources');
      if (sparsePaths.length > 0) throw new PluginError('InvalidRequest', '--sparse is only supported for git marketplace sources');
      const root = await realpath(parsed.path).catch((error: unknown) => {
        throw new PluginError('NotFound', `failed to resolve local marketplace source path ${parsed.path}: ${(error as Error).message}`, { cause: error });
      });
      const manifest = await readMarketplace(root);
      return this.#record(manifest.name, { sourceType: 'local', source: root, ref: undefined, sparsePaths: [] }, root);
    }
    for (const sparse of sparsePaths) {
      if (sparse.startsWith('-') || path.isAbsolute(sparse) || sparse.split(/[\\/]/).includes('..')) throw new PluginError('InvalidRequest', `invalid sparse path \`${sparse}\`: give a folder inside the repository`);
    }
    const setting: MarketplaceSetting = { sourceType: 'git', source: parsed.url, ref, sparsePaths };
    const staged = await this.#checkout(setting);
    try {
      const manifest = await readMarketplace(staged.dir);
      const existing = (await this.host.settings()).marketplaces[manifest.name];
      const target = this.#checkoutOf(manifest.name);
      if (existing !== undefined && sameSource(existing, setting) && (await exists(target))) return { marketplaceName: manifest.name, installedRoot: target, alreadyAdded: true };
      this.#refuseConflict(manifest.name, existing, setting);
      await rm(target, { recursive: true, force: true });
      await rename(staged.dir, target);
      return await this.#record(manifest.name, setting, target);
    } finally {
      await rm(staged.dir, { recursive: true, force: true });
    }
  }

  /** Removes a configured marketplace and its checkout (its installed plugins stay installed). */
  async remove(name: string): Promise<{ readonly marketplaceName: string; readonly installedRoot: string | null }> {
    const checkout = this.#checkoutOf(name);
    const setting = (await this.host.settings()).marketplaces[name];
    const hasCheckout = setting?.sourceType !== 'local' && (await exists(checkout));
    if (setting === undefined && !hasCheckout) throw new PluginError('NotFound', `marketplace \`${name}\` is not configured or installed`);
    if (setting !== undefined) await this.host.writeConfig([{ keyPath: ['marketplaces', name], value: null, mergeStrategy: 'replace' }]);
    if (hasCheckout) await rm(checkout, { recursive: true, force: true });
    return { marketplaceName: name, installedRoot: hasCheckout ? checkout : null };
  }

  /**
   * Fetches git marketplaces again (one, or all), swapping in each whose commit moved. Errors are
   * per marketplace; the others still upgrade.
   */
  async upgrade(name?: string): Promise<{ readonly selectedMarketplaces: string[]; readonly upgradedRoots: string[]; readonly errors: { marketplaceName: string; message: string }[] }> {
    const { marketplaces } = await this.host.settings();
    // Codex's words for an unknown name too: only configured git marketplaces upgrade.
    if (name !== undefined) checkedName(name, 'marketplace');
    if (name !== undefined && marketplaces[name]?.sourceType !== 'git') throw new PluginError('InvalidRequest', `marketplace \`${name}\` is not configured as a Git marketplace`);
    const selected = Object.entries(marketplaces).filter(([candidate, setting]) => setting.sourceType === 'git' && isSafeName(candidate) && (name === undefined || candidate === name));
    const upgradedRoots: string[] = [];
    const errors: { marketplaceName: string; message: string }[] = [];
    for (const [marketplaceName, setting] of selected) {
      try {
        const upgraded = await this.#upgradeOne(marketplaceName, setting);
        if (upgraded !== undefined) upgradedRoots.push(upgraded);
      } catch (error) {
        errors.push({ marketplaceName, message: (error as Error).message });
      }
    }
    return { selectedMarketplaces: selected.map(([marketplaceName]) => marketplaceName), upgradedRoots, errors };
  }

  /** Reads `known`'s manifest. */
  read(known: KnownMarketplace): Promise<MarketplaceManifest> {
    return readMarketplace(known.root);
  }

  async #upgradeOne(name: string, setting: MarketplaceSetting): Promise<string | undefined> {
    const target = this.#checkoutOf(name);
    const recorded = await readFile(path.join(target, INSTALL_RECORD), 'utf8').then((text) => (JSON.parse(text) as { revision?: unknown }).revision, () => undefined);
    const staged = await this.#checkout(setting);
    try {
      if (staged.revision === recorded && (await exists(target))) return undefined;
      const manifest = await readMarketplace(staged.dir);
      if (manifest.name !== name) throw new PluginError('InvalidManifest', `marketplace \`${name}\` now calls itself \`${manifest.name}\`; remove it and add it again`);
      const record = { source_type: 'git', source: setting.source, ref_name: setting.ref ?? null, sparse_paths: setting.sparsePaths, revision: staged.revision };
      await writeFile(path.join(staged.dir, INSTALL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
      // Swapped through a side name, so a reader sees the old checkout or the new one, never half of one.
      const previous = `${target}.previous-${randomUUID()}`;
      const hadTarget = await exists(target);
      if (hadTarget) await rename(target, previous);
      try {
        await rename(staged.dir, target);
      } catch (error) {
        // The old checkout goes back: a failed upgrade leaves the marketplace as it was.
        if (hadTarget) await rename(previous, target);
        throw error;
      }
      if (hadTarget) await rm(previous, { recursive: true, force: true });
      return target;
    } finally {
      await rm(staged.dir, { recursive: true, force: true });
    }
  }

  /** A fresh checkout of `setting` in a staging folder beside the checkouts. */
  async #checkout(setting: MarketplaceSetting): Promise<{ readonly dir: string; readonly revision: string }> {
    const staging = path.join(marketplaceCheckoutsDir(this.host.home), '.staging');
    await mkdir(staging, { recursive: true });
    const dir = path.join(staging, randomUUID());
    try {
      const revision = await cloneMarketplace(setting.source, dir, { ref: setting.ref, sparsePaths: setting.sparsePaths });
      return { dir, revision };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  #refuseConflict(name: string, existing: MarketplaceSetting | undefined, wanted: MarketplaceSetting): void {
    if (existing !== undefined && !sameSource(existing, wanted)) {
      throw new PluginError('Conflict', `marketplace '${name}' is already added from a different source; remove it before adding this source`);
    }
  }

  async #record(name: string, setting: MarketplaceSetting, root: string): Promise<AddedMarketplace> {
    const existing = (await this.host.settings()).marketplaces[name];
    if (existing !== undefined && sameSource(existing, setting)) return { marketplaceName: name, installedRoot: root, alreadyAdded: true };
    this.#refuseConflict(name, existing, setting);
    const table: Record<string, unknown> = { source_type: setting.sourceType, source: setting.source };
    if (setting.ref !== undefined) table['ref'] = setting.ref;
    if (setting.sparsePaths.length > 0) table['sparse_paths'] = [...setting.sparsePaths];
    await this.host.writeConfig([{ keyPath: ['marketplaces', name], value: table, mergeStrategy: 'replace' }]);
    return { marketplaceName: name, installedRoot: root, alreadyAdded: false };
  }
}

function sameSource(a: MarketplaceSetting, b: MarketplaceSetting): boolean {
  return a.sourceType === b.sourceType && a.source === b.source && a.ref === b.ref && a.sparsePaths.join('\0') === b.sparsePaths.join('\0');
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
