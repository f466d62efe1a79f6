// Where plugins live under Skein's home (`CODEX_HOME`), laid out as Codex lays them out so either
// can read what the other installed.
import path from 'node:path';

/** `<home>/plugins/cache`: installed plugins, `<marketplace>/<plugin>/<version>/`. */
export function pluginCacheDir(home: string): string {
  return path.join(home, 'plugins', 'cache');
}

/** The folder one plugin's installed versions share. */
export function installedPluginDir(home: string, marketplace: string, plugin: string): string {
  return path.join(pluginCacheDir(home), marketplace, plugin);
}

/** `<home>/.tmp/marketplaces`: git marketplaces' checkouts, one folder per marketplace name. */
export function marketplaceCheckoutsDir(home: string): string {
  return path.join(home, '.tmp', 'marketplaces');
}

/** The version folder a plugin is installed under: its manifest's version, or `local`. */
export function versionFolder(version: string | null | undefined): string {
  return version === null || version === undefined ? 'local' : version;
}
