// The settings a loaded thread's turns run with: the current ones, those a client changed while a
// turn ran (they apply once it ends, never to the running turn), and the queue that keeps settings
// changes in arrival order.
import type { Config } from '@skein/config';
import type { SelectedEnvironment, ThreadHandle } from '@skein/core';

export class LiveThreadSettings {
  #config: Config;
  /** Settings a client changed while a turn ran. */
  #next: Config | undefined;
  #deferred: (() => void)[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(
    config: Config,
    private readonly handle: () => ThreadHandle,
  ) {
    this.#config = config;
  }

  /** The settings turns run with now. */
  get current(): Config {
    return this.#config;
  }

  /** Settings the next turn runs with: those a client changed while a turn ran, else the current ones. */
  get next(): Config {
    return this.#next ?? this.#config;
  }

  /** Settings for this and later turns (a client's turn overrides). */
  reconfigure(config: Config): void {
    this.#config = config;
    this.#next = undefined;
    this.handle().reconfigure(config);
  }

  /** Settings (and environments) for later turns: applied now when no turn runs, else once it ends ({@link applyDeferred}). */
  configureNextTurns(config: Config, environments: readonly SelectedEnvironment[] | undefined, turnRunning: boolean): void {
    const apply = () => {
      this.reconfigure(config);
      if (environments !== undefined) this.handle().useEnvironment(environments);
    };
    if (!turnRunning) return apply();
    this.#next = config;
    this.#deferred.push(apply);
  }

  /** Applies what changed while the turn that just ended ran. */
  applyDeferred(): void {
    for (const apply of this.#deferred.splice(0)) apply();
  }

  /** Runs `change` after every earlier one (each loads config, which takes a while). */
  serialize<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(change);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
