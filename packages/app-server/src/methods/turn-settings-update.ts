// `turn/settings/update`: changing the running turn's model settings between its steps. Codex
// 0.171.0 serves it only with the `step_model_switching` feature (under development, off), and
// answers its refusal otherwise (probed). Skein's turns take their settings when they start, so it
// refuses with the feature on too, saying so, rather than answer a change it would not make.
import { TurnSettingsUpdateParams } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `turn/settings/update` method. */
export const TURN_SETTINGS_UPDATE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'turn/settings/update',
    defineMethod({
      params: TurnSettingsUpdateParams,
      handle(params, { server }) {
        const thread = server.threads.loaded(params.threadId);
        if (!thread.nextConfig.features.isEnabled('step_model_switching')) refuse('turn settings updates require the step_model_switching feature');
        refuse('turn settings updates are not supported by this server: a turn keeps the settings it started with (use thread/settings/update for the next turn)');
      },
    }),
  ],
]);
