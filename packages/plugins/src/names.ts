// Plugin and marketplace names end up as folder names under the cache and as TOML keys, so both are
// held to one safe shape; a plugin's id is `<plugin>@<marketplace>`.
import { PluginError } from './plugin-error.js';

// Letters, digits, `-`, `_` and inner dots: never a separator, never `.` or `..`.
const NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** Whether `name` can name a plugin or a marketplace. */
export function isSafeName(name: string): boolean {
  return name.length <= 128 && NAME.test(name);
}

/** `name`, or an `InvalidRequest` saying what it names and why it cannot. */
export function checkedName(name: string, what: 'plugin' | 'marketplace'): string {
  if (!isSafeName(name)) throw new PluginError('InvalidRequest', `invalid ${what} name \`${name}\`: use letters, digits, \`-\`, \`_\` and inner dots`);
  return name;
}

/** A plugin's id as config and clients know it. */
export function pluginId(plugin: string, marketplace: string): string {
  return `${plugin}@${marketplace}`;
}

/** `<plugin>@<marketplace>` split and checked. */
export function parsePluginId(id: string): { readonly plugin: string; readonly marketplace: string } {
  const at = id.lastIndexOf('@');
  if (at <= 0 || at === id.length - 1) throw new PluginError('InvalidRequest', `invalid plugin id \`${id}\`: expected <plugin>@<marketplace>`);
  return { plugin: checkedName(id.slice(0, at), 'plugin'), marketplace: checkedName(id.slice(at + 1), 'marketplace') };
}
