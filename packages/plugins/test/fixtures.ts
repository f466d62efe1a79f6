// A scratch world for the plugin service: a home, a user home, and room for marketplaces beside them.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { PluginService } from '../src/index.js';

/** A scratch home, a user home and a place for marketplaces; `service` reads config.toml as a host would. */
export async function pluginWorld() {
  const dir = await mkdtemp(path.join(tmpdir(), 'skein-plugins-'));
  const home = path.join(dir, 'home');
  const userHome = path.join(dir, 'user');
  await mkdir(home, { recursive: true });
  await mkdir(userHome, { recursive: true });
  const service = new PluginService({
    home,
    userHome,
    settings: async () => (await loadConfig({ cwd: dir, env: {}, homeDir: home })).config.plugins,
  });
  return { dir, home, userHome, service, dispose: () => rm(dir, { recursive: true, force: true }) };
}
