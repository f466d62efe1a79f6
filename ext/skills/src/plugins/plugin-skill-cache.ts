// An installed plugin's skills: its skill folders scanned as host folders are, each skill renamed
// `<plugin>:<skill>` and listed under the marketplace's cache folder, kept as one frozen snapshot per
// plugin and shared by every thread. A snapshot is reused until the plugin's installed folder moves
// (a new version) or the mtime of that folder or of one of its skill folders changes: a few stats a
// turn, no watcher (installs go through the host, which can also call `invalidate`).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { scanHostRoot } from '../host/scan-host-root.js';
import type { SkillMetadataStore } from '../host/skill-metadata-store.js';
import type { PluginSkillSource } from '../skills-settings.js';
import type { Skill, SkillProblem } from '../skill.js';

/** Plugins whose snapshots are kept; past this, the least recently scanned is dropped. */
export const MAX_PLUGIN_SNAPSHOTS = 256;

/** One plugin's skills, frozen. */
export interface PluginSkillSnapshot {
  readonly source: PluginSkillSource;
  /** Named `<plugin>:<skill>`, skill roots in the order given; a name found twice keeps its first skill. */
  readonly skills: readonly Skill[];
  readonly problems: readonly SkillProblem[];
}

interface CacheEntry {
  /** What the snapshot was scanned from: another name, folder or skill roots is another plugin. */
  readonly key: string;
  readonly mtimes: Promise<readonly (number | undefined)[]>;
  readonly snapshot: Promise<PluginSkillSnapshot>;
}

/** Snapshots by plugin id. */
export class PluginSkillCache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #metadata: SkillMetadataStore | undefined;

  /** `metadata` is the store host skills use too, so a plugin's SKILL.md is parsed once across processes. */
  constructor(options: { readonly metadata?: SkillMetadataStore } = {}) {
    this.#metadata = options.metadata;
  }

  /** The snapshots of `sources`, in the order given; a plugin id given twice counts once. */
  snapshots(sources: readonly PluginSkillSource[], options: { readonly forceReload?: boolean } = {}): Promise<PluginSkillSnapshot[]> {
    const ids = new Set<string>();
    const unique = sources.filter((source) => !ids.has(source.id) && ids.add(source.id));
    return Promise.all(unique.map((source) => this.snapshot(source, options)));
  }

  /** The snapshot of `source`, scanned when there is none, the plugin changed, or `forceReload`. */
  async snapshot(source: PluginSkillSource, options: { readonly forceReload?: boolean } = {}): Promise<PluginSkillSnapshot> {
    const key = JSON.stringify([source.name, source.marketplaceRoot, source.root, source.skillRoots]);
    const existing = this.#entries.get(source.id);
    const mtimes = folderMtimes(source);
    if (existing !== undefined && existing.key === key && options.forceReload !== true && sameMtimes(await existing.mtimes, await mtimes)) return existing.snapshot;
    const entry: CacheEntry = { key, mtimes, snapshot: scanPlugin(source, this.#metadata) };
    this.#entries.delete(source.id);
    this.#entries.set(source.id, entry);
    for (const id of this.#entries.keys()) {
      if (this.#entries.size <= MAX_PLUGIN_SNAPSHOTS) break;
      this.#entries.delete(id);
    }
    entry.snapshot.catch(() => {
      if (this.#entries.get(source.id) === entry) this.#entries.delete(source.id);
    });
    return entry.snapshot;
  }

  /** Drops every snapshot (a plugin installed or removed, say). */
  invalidate(): void {
    this.#entries.clear();
  }
}

/** `source`'s skills, scanned now. */
export async function scanPlugin(source: PluginSkillSource, metadata: SkillMetadataStore | undefined): Promise<PluginSkillSnapshot> {
  const problems: SkillProblem[] = [];
  const roots: string[] = [];
  for (const skillRoot of source.skillRoots) {
    const resolved = path.resolve(skillRoot);
    if (!within(path.resolve(source.root), resolved)) {
      problems.push({ path: resolved, message: `the skill folder of plugin ${source.id} is outside its installed folder ${source.root}` });
    } else if (!roots.includes(resolved)) {
      roots.push(resolved);
    }
  }
  const read = metadata === undefined ? undefined : metadata.metadata.bind(metadata);
  // A skill root inside another is left to itself, so no skill is found twice.
  // No links: an installed plugin holds none (the install copies none), and in a marketplace's copy
  // (`plugin/read`) one could reach outside the plugin.
  const scanned = await Promise.all(roots.map((root) => scanHostRoot({ path: root, scope: 'user' }, new Set(roots.filter((other) => other !== root && within(root, other))), read, false)));
  await metadata?.save();
  const names = new Set<string>();
  const skills: Skill[] = [];
  for (const found of scanned) {
    problems.push(...found.problems);
    for (const skill of found.skills) {
      if (skill.locator.kind !== 'file') continue;
      const name = `${source.name}:${skill.name}`;
      if (names.has(name)) continue;
      names.add(name);
      skills.push({ ...skill, name, scope: 'user', pluginId: source.id, locator: { kind: 'file', rootPath: source.marketplaceRoot, path: skill.locator.path } });
    }
  }
  return Object.freeze({ source, skills: Object.freeze(skills), problems: Object.freeze(problems) });
}

/** Whether `child` is `parent` or inside it. */
function within(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** The mtimes of the installed folder and its skill folders (undefined for one that is not there). */
function folderMtimes(source: PluginSkillSource): Promise<(number | undefined)[]> {
  return Promise.all([source.root, ...source.skillRoots].map((folder) => stat(folder).then((info) => info.mtimeMs, () => undefined)));
}

function sameMtimes(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
