// One turn's view of its environments: the selection it started with (a settings update moves later
// turns, not this one), where its calls run, and the before-sampling hook that tells the model of an
// environment that finished connecting, or failed to, since it was last told.
import type { Config } from '@skein/config';
import type { ResponseItem } from '@skein/protocol';
import type { TurnToolCallsOptions } from '../tools/turn-tool-calls.js';
import type { BeforeSamplingHook } from '../turn/turn-hooks.js';
import { environmentIdOf, type EnvironmentSelection, type EnvironmentState, type ThreadEnvironment } from './thread-environment.js';

export class TurnEnvironments implements BeforeSamplingHook {
  readonly name = 'environment updates';
  /**
   * Calls without an environment_id run on the primary the model was last told of: one that becomes
   * ready takes over only once the update saying so has gone out.
   */
  #toldPrimary: ThreadEnvironment | undefined;

  constructor(
    readonly selection: EnvironmentSelection,
    private readonly state: EnvironmentState,
    private readonly config: Config,
    /** The update to append, if the environments changed since the model was last told (TurnContextAssembly.environmentUpdate). */
    private readonly update: (config: Config) => ResponseItem | undefined,
  ) {
    this.#toldPrimary = selection.ready[0];
  }

  beforeSampling(): readonly ResponseItem[] {
    const update = this.update(this.config);
    // With or without an update, the model now knows the environments as they are.
    this.#toldPrimary = this.selection.ready[0];
    return update === undefined ? [] : [update];
  }

  /** Where the turn's calls run, read for each call: an environment still connecting is used once it is ready. */
  get callOptions(): Pick<TurnToolCallsOptions, 'environment' | 'currentEnvironments' | 'currentPrimary' | 'isUnusable'> {
    const ready = () => this.state.toolEnvironments(this.config, this.selection);
    return {
      environment: undefined,
      currentEnvironments: ready,
      currentPrimary: () => {
        const told = this.#toldPrimary;
        return told === undefined ? undefined : ready().find((environment) => environment.id === environmentIdOf(told));
      },
      isUnusable: (id) => this.selection.isUnusable(id),
    };
  }
}
