// The extensions' world state between the sampling requests of a turn: the turn's context carries
// the first snapshot; before each later request the sections are snapshotted again, so a tool that
// changed what a section reports is seen by the model in the same turn (the `world_state` line
// records the new snapshot, the model reads the change as a developer message).
import type { ResponseItem } from '@skein/protocol';
import type { ExtensionHost } from '../extensions/extension-host.js';
import type { BeforeSamplingHook, TurnStep } from '../turn/turn-hooks.js';
import type { ThreadRecorder } from './thread-recorder.js';

export interface WorldStateStepOptions {
  readonly extensions: ExtensionHost;
  readonly recorder: ThreadRecorder;
  readonly threadId: string;
  /** The running turn's cwd. */
  readonly cwd: string;
}

/** A before-sampling hook that tells the model what changed in the world state since its last request. */
export function worldStateStep(options: WorldStateStepOptions): BeforeSamplingHook {
  return {
    name: 'world-state',
    async beforeSampling(step: TurnStep): Promise<readonly ResponseItem[]> {
      if (step.samplingIndex === 0) return [];
      const world = await options.extensions.worldState(options.threadId, options.cwd, step.turnId);
      if (world.records.length > 0) options.recorder.recordWorldState(world.records);
      return world.changes.map((change): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: change.text }] }));
    },
  };
}
