// One per host process: the host-skill and plugin-skill snapshots (shared by every thread and by
// `skills/list`), the runtime extra roots, the providers, and the per-thread catalog each turn is
// built from.
import os from 'node:os';
import path from 'node:path';
import type { Extension } from '@skein/extension-api';
import { HostSkillCache, type HostSkillSnapshot } from './host/host-skill-cache.js';
import { hostSkillRoots } from './host/host-roots.js';
import { SkillMetadataStore } from './host/skill-metadata-store.js';
import { unpackSystemSkills } from './host/system-skills.js';
import { PluginSkillCache, scanPlugin, type PluginSkillSnapshot } from './plugins/plugin-skill-cache.js';
import { executorSkillProvider } from './providers/executor-provider.js';
import type { SkillProvider, SkillProviderRequest } from './providers/skill-provider.js';
import { skillEnabled, type PluginSkillSource, type SkillsSettings } from './skills-settings.js';
import type { Skill, SkillProblem } from './skill.js';
import { skillsExtension } from './skills-extension.js';

/** How a host sets the service up. */
export interface SkillsServiceOptions {
  /** Skein's home (`CODEX_HOME`): user skills in `<home>/skills`, system skills unpacked into `<home>/skills/.system`. */
  readonly home: string;
  /** The host's settings for a working directory. */
  readonly settings: (cwd: string) => Promise<SkillsSettings>;
  /** Remote and custom providers (the executor provider is always there). */
  readonly providers?: readonly SkillProvider[];
  /** Watch skill folders for changes (default true; a one-shot `skein exec` turns it off). */
  readonly watch?: boolean;
  /** The user's home, for `~/.agents/skills` (default: the OS's; null skips it). */
  readonly userHome?: string | null;
  /** The admin root (default `/etc/codex/skills`; null skips it). */
  readonly adminRoot?: string | null;
  /**
   * The plugin ids (`<plugin>@<marketplace>`) a thread switched off (`turn/start`'s
   * `disabledPluginIds`, kept for its later turns): their skills are left out of its catalog.
   */
  readonly disabledPlugins?: (threadId: string) => readonly string[];
}

/** The skills one thread's turn sees, in precedence order, and what went wrong finding them. */
export interface TurnCatalog {
  /** Package skills (executor, remote, custom) first: on a shared name they own the invocation. Then host skills, then plugin skills. */
  readonly skills: readonly Skill[];
  readonly host: HostSkillSnapshot;
  /** The snapshots of the plugins the thread has not switched off. */
  readonly plugins: readonly PluginSkillSnapshot[];
  readonly warnings: readonly string[];
}

/** A host directory's skills as `skills/list` reports them. */
export interface ClientSkillList {
  readonly skills: readonly (Skill & { readonly enabled: boolean })[];
  readonly problems: readonly SkillProblem[];
}

/** The skills of a host process. */
export class SkillsService {
  readonly #options: SkillsServiceOptions;
  readonly #cache: HostSkillCache;
  readonly #plugins: PluginSkillCache;
  readonly #providers: readonly SkillProvider[];
  #extraRoots: readonly string[] = [];
  #systemSkills: Promise<void> | undefined;
  /** Why the system skills could not be unpacked, for the next catalog's warnings. */
  #unpackProblem: string | undefined;
  readonly #changeListeners = new Set<() => void>();
  /** The last catalog built: reused (same object) while nothing it was built from changed. */
  #lastCatalog: { readonly key: string; readonly packaged: readonly Skill[]; readonly catalog: TurnCatalog } | undefined;

  constructor(options: SkillsServiceOptions) {
    this.#options = options;
    // One store for host and plugin skills: both are SKILL.md files read the same way.
    const metadata = new SkillMetadataStore(path.join(options.home, 'cache', 'skein-skill-metadata.json'));
    this.#cache = new HostSkillCache({ watch: options.watch ?? true, metadata });
    this.#plugins = new PluginSkillCache({ metadata });
    this.#cache.onChange(() => this.#notify());
    this.#providers = [executorSkillProvider(), ...(options.providers ?? [])];
  }

  /** The extension hosts install: catalog, skill injection and the `skills` tools. */
  get extension(): Extension {
    return skillsExtension(this);
  }

  get providers(): readonly SkillProvider[] {
    return this.#providers;
  }

  /** Replaces the runtime extra roots (`skills/extraRoots/set`); listeners hear of it. */
  setExtraRoots(roots: readonly string[]): void {
    this.#extraRoots = [...roots];
    this.#notify();
  }

  /** Calls `listener` when host skills may have changed; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Drops cached snapshots so the next read rescans (after the user's toggles changed, or a plugin was installed, say). */
  invalidate(): void {
    this.#cache.invalidate();
    this.#plugins.invalidate();
  }

  /**
   * A plugin's skills read now, without keeping a snapshot: `plugin/read` lists those of a plugin
   * that is not installed, from its marketplace's folder.
   */
  readPluginSkills(source: PluginSkillSource): Promise<PluginSkillSnapshot> {
    return scanPlugin(source, undefined);
  }

  async close(): Promise<void> {
    await this.#cache.close();
  }

  /**
   * `skills/list`'s view of `cwd`: every host skill, then every skill of the plugins `settings` gives
   * (no thread, so none is switched off), hidden ones too, with whether it is enabled.
   */
  async listForClient(cwd: string, options: { readonly forceReload?: boolean } = {}): Promise<ClientSkillList> {
    const settings = await this.#options.settings(cwd);
    const [snapshot, plugins] = await Promise.all([this.#hostSnapshot(cwd, settings, options), this.#plugins.snapshots(settings.plugins ?? [], options)]);
    return {
      skills: [...snapshot.skills, ...pluginSkills(snapshot, plugins)].map((skill) => ({ ...skill, enabled: skillEnabled(settings.toggles, skill.locator.kind === 'file' ? skill.locator.path : '', skill.name) })),
      problems: [...snapshot.problems, ...plugins.flatMap((plugin) => plugin.problems)],
    };
  }

  /** Everything a turn of a thread can see: enabled host skills, the skills of plugins it has not switched off, and every provider's, with warnings. */
  async turnCatalog(request: SkillProviderRequest): Promise<TurnCatalog> {
    const settings = await this.#options.settings(request.cwd);
    const disabled = new Set(this.#options.disabledPlugins?.(request.threadId) ?? []);
    const [host, plugins] = await Promise.all([
      this.#hostSnapshot(request.cwd, settings),
      this.#plugins.snapshots((settings.plugins ?? []).filter((plugin) => !disabled.has(plugin.id))),
    ]);
    const problems = [...host.problems, ...plugins.flatMap((plugin) => plugin.problems)];
    const warnings = problems.map((problem) => `skill ${problem.path} was not loaded: ${problem.message}`);
    if (this.#unpackProblem !== undefined) warnings.push(`the bundled system skills could not be unpacked: ${this.#unpackProblem}`);
    const packaged: Skill[] = [];
    for (const provider of this.#providers) {
      if (provider.kind === 'remote' && !settings.remoteSkills) continue;
      try {
        const listing = await provider.list(request);
        packaged.push(...listing.skills);
        warnings.push(...listing.warnings);
      } catch (error) {
        warnings.push(`skill provider '${provider.id}' failed: ${(error as Error).message}`);
      }
    }
    // Later turns usually see the same snapshots, toggles and provider listings: hand back the same
    // catalog, so what is rendered from it can be kept too.
    const key = JSON.stringify([settings.toggles, warnings]);
    const last = this.#lastCatalog;
    if (last !== undefined && last.catalog.host === host && last.key === key && sameItems(last.catalog.plugins, plugins) && sameItems(last.packaged, packaged)) {
      return last.catalog;
    }
    // Plugin skills come after host skills, as Codex lists them (after the system skills).
    const enabled = [...host.skills, ...pluginSkills(host, plugins)].filter((skill) => skill.locator.kind === 'file' && skillEnabled(settings.toggles, skill.locator.path, skill.name));
    const catalog: TurnCatalog = Object.freeze({ skills: Object.freeze([...packaged, ...enabled]), host, plugins: Object.freeze(plugins), warnings: Object.freeze(warnings) });
    this.#lastCatalog = { key, packaged, catalog };
    return catalog;
  }

  /** Whether `cwd`'s threads have remote or custom providers to read from (so the `skills` tools are offered). */
  async offersPackages(cwd: string): Promise<boolean> {
    const remoteSkills = (await this.#options.settings(cwd)).remoteSkills;
    return this.#providers.some((provider) => provider.kind === 'custom' || (provider.kind === 'remote' && remoteSkills));
  }

  /** The provider that listed `skill`. */
  providerFor(skill: Skill): SkillProvider | undefined {
    const locator = skill.locator;
    switch (locator.kind) {
      case 'executor':
        return this.#providers.find((provider) => provider.kind === 'executor');
      case 'remote':
        return this.#providers.find((provider) => provider.kind === 'remote' && provider.id === locator.server);
      case 'custom':
        return this.#providers.find((provider) => provider.id === locator.providerId);
      case 'file':
        return undefined;
    }
  }

  /** The host skills for `cwd`, from the snapshot unless `forceReload`. Callers read `settings` once: in the app-server each read loads config files. */
  async #hostSnapshot(cwd: string, settings: SkillsSettings, options: { readonly forceReload?: boolean } = {}): Promise<HostSkillSnapshot> {
    await this.#unpackOnce();
    const roots = hostSkillRoots({
      home: this.#options.home,
      ...(this.#options.userHome === null ? {} : { userHome: this.#options.userHome ?? os.homedir() }),
      cwd,
      projectRoot: settings.projectRoot,
      extraRoots: this.#extraRoots,
      ...(this.#options.adminRoot === undefined ? {} : { adminRoot: this.#options.adminRoot }),
    });
    return this.#cache.snapshot(roots, options);
  }

  #unpackOnce(): Promise<void> {
    this.#systemSkills ??= unpackSystemSkills(this.#options.home).then(
      () => {
        this.#unpackProblem = undefined;
      },
      (error: unknown) => {
        // A read-only home still lists whatever is there; the next call tries again.
        this.#unpackProblem = (error as Error).message;
        this.#systemSkills = undefined;
      },
    );
    return this.#systemSkills;
  }

  #notify(): void {
    for (const listener of this.#changeListeners) listener();
  }
}

/** The plugins' skills in the order given, leaving out a name a host skill or an earlier plugin already has. */
function pluginSkills(host: HostSkillSnapshot, plugins: readonly PluginSkillSnapshot[]): Skill[] {
  const names = new Set(host.skills.map((skill) => skill.name));
  const skills: Skill[] = [];
  for (const plugin of plugins) {
    for (const skill of plugin.skills) {
      if (names.has(skill.name)) continue;
      names.add(skill.name);
      skills.push(skill);
    }
  }
  return skills;
}

/** Whether two lists hold the same objects in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
