// `collaborationMode/list`: the presets a client offers for a turn's collaboration mode. Codex's
// built-ins are a planning mode (medium reasoning) and the default; neither pins a model.
import { CollaborationModeListParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The built-in presets, in Codex's order and with its field names (snake_case `reasoning_effort`). */
export const COLLABORATION_MODE_PRESETS = [
  { name: 'Plan', mode: 'plan', model: null, reasoning_effort: 'medium' },
  { name: 'Default', mode: 'default', model: null, reasoning_effort: null },
] as const;

/** The `collaborationMode/list` method (experimental in Codex). */
export const COLLABORATION_MODE_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'collaborationMode/list',
    defineMethod({
      params: CollaborationModeListParams,
      experimental: true,
      handle: () => ({ data: COLLABORATION_MODE_PRESETS.map((preset) => ({ ...preset })) }),
    }),
  ],
]);
