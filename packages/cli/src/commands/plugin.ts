// `skein plugin …`: Codex's `codex plugin` commands over the same home. `marketplace add|remove|
// upgrade|list` and `add|remove|list`, with `--json` answering Codex's shapes; refusals are the
// plugin service's typed errors (exit 1, the message on stderr).
import os from 'node:os';
import type { Command } from 'commander';
import { isSafeName, PluginError, PluginService, type ListedMarketplace, type PluginCatalog } from '@skein/plugins';
import { loadConfigFor, type GlobalOptions } from '../global-options.js';
import type { ProgramIo } from '../program.js';

interface JsonOption {
  readonly json?: boolean;
}

/** Adds `plugin` and its subcommands to `program`. */
export function addPluginCommand(program: Command, io: ProgramIo): void {
  const plugin = program.command('plugin').description('install plugins from marketplaces (shared with `codex plugin`)');
  const print = (options: JsonOption, json: unknown, text: string) => io.stdout(options.json === true ? `${JSON.stringify(json)}\n` : `${text}\n`);
  const marketplace = plugin.command('marketplace').description('add, upgrade and remove plugin marketplaces');
  marketplace
    .command('add')
    .description('add a marketplace: a folder, owner/repo, or a git URL')
    .argument('<source>')
    .option('--ref <ref>', 'the git ref to check out')
    .option('--sparse <path...>', 'check out only these folders of a git marketplace')
    .option('--json', 'answer as JSON')
    .action(async (source: string, options: JsonOption & { ref?: string; sparse?: string[] }, command: Command) => {
      const plugins = await pluginService(command, io);
      const added = await plugins.marketplaces.add(source, { cwd: io.cwd, ref: options.ref, sparsePaths: options.sparse });
      const from = /^(?:https?|ssh):\/\/|@/.test(source) ? source : added.installedRoot;
      const verb = added.alreadyAdded ? `Marketplace \`${added.marketplaceName}\` is already added from ${from}.` : `Added marketplace \`${added.marketplaceName}\` from ${from}.`;
      print(options, added, `${verb}\nInstalled marketplace root: ${added.installedRoot}`);
    });
  marketplace
    .command('remove')
    .description('remove a marketplace and its checkout (installed plugins stay)')
    .argument('<name>')
    .option('--json', 'answer as JSON')
    .action(async (name: string, options: JsonOption, command: Command) => {
      const removed = await (await pluginService(command, io)).marketplaces.remove(name);
      print(options, removed, `Removed marketplace \`${name}\`.${removed.installedRoot === null ? '' : `\nRemoved installed marketplace root: ${removed.installedRoot}`}`);
    });
  marketplace
    .command('upgrade')
    .description('fetch git marketplaces again (one, or all)')
    .argument('[name]')
    .option('--json', 'answer as JSON')
    .action(async (name: string | undefined, options: JsonOption, command: Command) => {
      const upgraded = await (await pluginService(command, io)).marketplaces.upgrade(name);
      const lines = [
        ...(upgraded.selectedMarketplaces.length === 0 ? ['No configured Git marketplaces to upgrade.'] : []),
        ...upgraded.upgradedRoots.map((root) => `Upgraded ${root}`),
        ...(upgraded.selectedMarketplaces.length > 0 && upgraded.upgradedRoots.length === 0 && upgraded.errors.length === 0 ? ['All configured Git marketplaces are already up to date.'] : []),
        ...upgraded.errors.map((error) => `Failed to upgrade \`${error.marketplaceName}\`: ${error.message}`),
      ];
      print(options, upgraded, lines.join('\n'));
      if (upgraded.errors.length > 0) process.exitCode = 1;
    });
  marketplace
    .command('list')
    .description('list the marketplaces in scope')
    .option('--json', 'answer as JSON')
    .action(async (options: JsonOption, command: Command) => {
      const catalog = loaded(await (await pluginService(command, io)).list(), 'failed to load marketplace(s)');
      const marketplaces = catalog.marketplaces.map((market) => ({ name: market.manifest.name, root: market.manifest.root, marketplaceSource: marketplaceSource(market) }));
      const text = marketplaces.length === 0 ? 'No plugin marketplaces in scope.' : ['MARKETPLACE\tROOT', ...marketplaces.map((market) => `${market.name}\t${market.root}`)].join('\n');
      print(options, { marketplaces }, text);
    });

  plugin
    .command('add')
    .description('install a plugin: <plugin>@<marketplace>, or <plugin> --marketplace <name>')
    .argument('<plugin>')
    .option('--marketplace <name>', 'the marketplace to install from')
    .option('--json', 'answer as JSON')
    .action(async (selector: string, options: JsonOption & { marketplace?: string }, command: Command) => {
      const { plugin: name, marketplace: market } = splitSelector(selector, options.marketplace);
      const plugins = await pluginService(command, io);
      const installed = await plugins.install(name, await plugins.marketplacePathOf(market));
      print(options, installed, `Added plugin \`${installed.name}\` from marketplace \`${installed.marketplaceName}\`.\nInstalled plugin root: ${installed.installedPath}`);
    });
  plugin
    .command('remove')
    .description('uninstall a plugin by id (<plugin>@<marketplace>)')
    .argument('<plugin-id>')
    .option('--json', 'answer as JSON')
    .action(async (id: string, options: JsonOption, command: Command) => {
      const { plugin: name, marketplace: market } = splitSelector(id, undefined);
      await (await pluginService(command, io)).uninstall(`${name}@${market}`);
      print(options, { pluginId: `${name}@${market}`, name, marketplaceName: market }, `Removed plugin \`${name}\` from marketplace \`${market}\`.`);
    });
  plugin
    .command('list')
    .description('list installed plugins (and, with --available, the others)')
    .option('--available', 'also list plugins that are not installed')
    .option('--json', 'answer as JSON')
    .action(async (options: JsonOption & { available?: boolean }, command: Command) => {
      const catalog = loaded(await (await pluginService(command, io)).list(), 'failed to load configured marketplace snapshot(s)');
      const rows = catalog.marketplaces.flatMap((market) =>
        market.plugins.map((entry) => ({
          pluginId: entry.id,
          name: entry.name,
          marketplaceName: market.manifest.name,
          version: entry.installed?.version ?? entry.manifest?.json.version ?? null,
          installed: entry.installed !== undefined,
          enabled: entry.enabled,
          source: { source: 'local', path: entry.entry.sourcePath },
          marketplaceSource: marketplaceSource(market),
          installPolicy: entry.entry.installPolicy,
          authPolicy: entry.entry.authPolicy,
        })),
      );
      const installed = rows.filter((row) => row.installed);
      const available = options.available === true ? rows.filter((row) => !row.installed) : [];
      const status = (row: (typeof rows)[number]) => (row.installed ? `installed, ${row.enabled ? 'enabled' : 'disabled'}` : 'not installed');
      const shown = [...installed, ...available];
      const text = shown.length === 0 ? 'No plugins installed.' : ['PLUGIN\tSTATUS\tVERSION\tSOURCE', ...shown.map((row) => `${row.pluginId}\t${status(row)}\t${row.version ?? ''}\t${row.source.path}`)].join('\n');
      print(options, { installed, available }, text);
    });
}

/** `<plugin>@<marketplace>`, or a plugin name with `--marketplace`; a selector of other names is refused as Codex refuses it. */
function splitSelector(selector: string, marketplace: string | undefined): { readonly plugin: string; readonly marketplace: string } {
  const at = selector.lastIndexOf('@');
  const split = at > 0 ? { plugin: selector.slice(0, at), marketplace: selector.slice(at + 1) } : marketplace === undefined ? undefined : { plugin: selector, marketplace };
  if (split === undefined || !isSafeName(split.plugin) || !isSafeName(split.marketplace)) throw new PluginError('InvalidRequest', 'plugin requires --marketplace unless passed as <plugin>@<marketplace>');
  return split;
}

/** Where a listed marketplace comes from, in Codex's JSON. */
function marketplaceSource(market: ListedMarketplace): { readonly sourceType: string; readonly source: string } {
  return market.setting === undefined ? { sourceType: 'local', source: market.manifest.root } : { sourceType: market.setting.sourceType, source: market.setting.source };
}

/** `catalog`, when every marketplace loaded; otherwise a refusal listing those that did not, as Codex's CLI fails. */
function loaded(catalog: PluginCatalog, heading: string): PluginCatalog {
  if (catalog.loadErrors.length === 0) return catalog;
  throw new PluginError('InvalidManifest', `${heading}:\n${catalog.loadErrors.map((error) => `- ${error.marketplacePath}: ${error.message}`).join('\n')}`);
}

/** The plugin service over the home the global options select; settings are read again on every call. */
async function pluginService(command: Command, io: ProgramIo): Promise<PluginService> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const { config, warnings } = await loadConfigFor(options, io);
  for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
  return new PluginService({
    home: config.homeDir,
    userHome: io.env['HOME'] ?? os.homedir(),
    settings: async () => (await loadConfigFor(options, io)).config.plugins,
  });
}
