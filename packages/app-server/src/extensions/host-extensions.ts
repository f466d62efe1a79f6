// The extensions of the app-server's threads: those the server's `--extension` flags name plus those
// of each thread's config (`[skein] extensions` of the user file, the profile and a trusted project),
// loaded once per distinct list. Each load problem is told once: the startup config's to every
// client as `configWarning`, a thread's own (a project's extension) to the client that opened it.
import type { Config } from '@skein/config';
import { loadExtensions, type ExtensionLoadError, type ExtensionSource, type LoadedExtensions, type LoadExtensionsOptions } from '@skein/core';
import type { ExtensionRegistry } from '@skein/extension-api';

/** A thread's extensions, and the problems of its list that were not reported before. */
export interface ThreadExtensions {
  readonly registry: ExtensionRegistry;
  readonly unreported: readonly ExtensionLoadError[];
}

/** Loads (and remembers) the extension set for a config. */
export class HostExtensions {
  readonly #flags: readonly ExtensionSource[];
  readonly #options: LoadExtensionsOptions;
  readonly #loads = new Map<string, Promise<LoadedExtensions>>();
  readonly #reported = new Set<string>();

  /**
   * `flags` are the server's `--extension` sources; `options.strict` (`--strict-config`) makes a load
   * failure an error; `options.builtIn` are installed in every thread first (the skills extension).
   */
  constructor(flags: readonly ExtensionSource[], options: LoadExtensionsOptions = {}) {
    this.#flags = flags;
    this.#options = options;
  }

  /** The extensions a thread with `config` gets; a strict host rejects with the first ExtensionLoadError. */
  async forConfig(config: Config): Promise<ThreadExtensions> {
    const sources = [...config.extensions, ...this.#flags];
    const key = JSON.stringify(sources);
    let load = this.#loads.get(key);
    if (load === undefined) {
      load = loadExtensions(sources, this.#options);
      // A rejected load is not kept: the next thread tries again (after a package was installed, say).
      load.catch(() => this.#loads.delete(key));
      this.#loads.set(key, load);
    }
    const { registry, problems } = await load;
    const unreported = problems.filter((problem) => !this.#reported.has(problem.message));
    for (const problem of unreported) this.#reported.add(problem.message);
    return { registry, unreported };
  }
}
