// Plugin marketplaces on disk for tests, in Codex's layout: `<root>/.agents/plugins/marketplace.json`
// listing `./plugins/<name>` folders, each with `.codex-plugin/plugin.json` and `skills/<skill>/SKILL.md`,
// optionally committed as a git repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestPlugin {
  readonly name: string;
  readonly version?: string;
  /** Skill name → description. */
  readonly skills?: Readonly<Record<string, string>>;
  /** The plugin.json text as is (for broken manifests); default one made from the fields above. */
  readonly manifest?: string;
  /** The marketplace entry's `policy`. */
  readonly policy?: Readonly<Record<string, string>>;
}

/** Writes a marketplace named `name` at `root`; answers its manifest file. */
export function writePluginMarketplace(root: string, name: string, plugins: readonly TestPlugin[]): string {
  const entries = plugins.map((plugin) => ({ name: plugin.name, source: { source: 'local', path: `./plugins/${plugin.name}` }, ...(plugin.policy === undefined ? {} : { policy: plugin.policy }) }));
  mkdirSync(path.join(root, '.agents', 'plugins'), { recursive: true });
  const file = path.join(root, '.agents', 'plugins', 'marketplace.json');
  writeFileSync(file, JSON.stringify({ name, interface: { displayName: `${name} market` }, plugins: entries }, null, 2));
  for (const plugin of plugins) {
    const dir = path.join(root, 'plugins', plugin.name);
    mkdirSync(path.join(dir, '.codex-plugin'), { recursive: true });
    const manifest = plugin.manifest ?? JSON.stringify({ name: plugin.name, ...(plugin.version === undefined ? {} : { version: plugin.version }), description: `the ${plugin.name} plugin`, interface: { displayName: `${plugin.name} plugin` } });
    writeFileSync(path.join(dir, '.codex-plugin', 'plugin.json'), manifest);
    for (const [skill, description] of Object.entries(plugin.skills ?? {})) {
      mkdirSync(path.join(dir, 'skills', skill), { recursive: true });
      writeFileSync(path.join(dir, 'skills', skill, 'SKILL.md'), `---\nname: ${skill}\ndescription: ${description}\n---\n\nDo the ${skill} thing.\n`);
    }
  }
  return file;
}

/** Runs git in `cwd` with a fixed author; answers its trimmed output. */
export function gitIn(cwd: string, ...args: string[]): string {
  const author = { GIT_AUTHOR_NAME: 'skein-test', GIT_AUTHOR_EMAIL: 'test@example.test', GIT_COMMITTER_NAME: 'skein-test', GIT_COMMITTER_EMAIL: 'test@example.test' };
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...author } }).trim();
}

/** Commits everything in `dir` (a repository is made on the first call) and tags it `tag`, moving the tag if it exists. */
export function commitMarketplace(dir: string, message: string, tag?: string): string {
  if (!existsSync(path.join(dir, '.git'))) gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  gitIn(dir, 'add', '.');
  gitIn(dir, 'commit', '--quiet', '-m', message);
  if (tag !== undefined) gitIn(dir, 'tag', '-f', tag);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

/**
 * Environment entries that make git fetch `<base>name` from `<reposDir>/name`, as a user's
 * `url.<base>.insteadOf` would: Codex (and Skein) refuse `file://` marketplace sources.
 */
export function gitUrlRewrite(base: string, reposDir: string): Record<string, string> {
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.file://${reposDir}/.insteadOf`, GIT_CONFIG_VALUE_0: base };
}
