// Installing copies a plugin's folder into the cache, `<home>/plugins/cache/<market>/<plugin>/<version>`:
// copied beside the target first and renamed into place, so the cache holds a whole plugin or none.
// Symbolic links are not copied: a plugin cannot reach outside its own folder through the cache.
import { randomUUID } from 'node:crypto';
import { cp, lstat, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PluginError } from '../plugin-error.js';
import { installedPluginDir, versionFolder } from '../plugin-home.js';

const VERSION = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*$/;

/** Copies `source` into the cache as `version`, replacing any installed version; answers the new folder. */
export async function copyIntoCache(home: string, marketplace: string, plugin: string, version: string | null | undefined, source: string): Promise<string> {
  const folder = versionFolder(version);
  if (!VERSION.test(folder)) throw new PluginError('InvalidManifest', `plugin \`${plugin}\` has version \`${folder}\`, which cannot name a folder`);
  const pluginDir = installedPluginDir(home, marketplace, plugin);
  const target = path.join(pluginDir, folder);
  const staging = path.join(pluginDir, `.installing-${randomUUID()}`);
  try {
    await cp(source, staging, {
      recursive: true,
      errorOnExist: true,
      force: false,
      filter: async (from) => {
        const info = await lstat(from);
        return !info.isSymbolicLink() && path.basename(from) !== '.git';
      },
    });
    // One version is installed at a time: the others are moved aside, the new one renamed in, and
    // only then are the old ones deleted, so a failure leaves the old install as it was. Another
    // install's staging folder is not ours to touch.
    const previous = (await readdir(pluginDir)).filter((entry) => !entry.startsWith('.'));
    const aside = previous.map((entry) => ({ from: path.join(pluginDir, entry), to: path.join(pluginDir, `.previous-${randomUUID()}`) }));
    for (const move of aside) await rename(move.from, move.to);
    try {
      await rename(staging, target);
    } catch (error) {
      for (const move of aside) await rename(move.to, move.from).catch(() => undefined);
      throw error;
    }
    for (const move of aside) await rm(move.to, { recursive: true, force: true });
    return target;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The installed version folder of a plugin, or undefined when none is there. */
export async function installedVersionDir(home: string, marketplace: string, plugin: string): Promise<{ readonly dir: string; readonly version: string; readonly installedAt: number } | undefined> {
  const pluginDir = installedPluginDir(home, marketplace, plugin);
  const entries = await readdir(pluginDir, { withFileTypes: true }).catch(() => []);
  let best: { dir: string; version: string; installedAt: number } | undefined;
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = path.join(pluginDir, entry.name);
    const info = await stat(dir);
    if (best === undefined || info.mtimeMs > best.installedAt) best = { dir, version: entry.name, installedAt: info.mtimeMs };
  }
  return best;
}

/** Removes every installed version of a plugin. */
export async function removeFromCache(home: string, marketplace: string, plugin: string): Promise<void> {
  await rm(installedPluginDir(home, marketplace, plugin), { recursive: true, force: true });
}
