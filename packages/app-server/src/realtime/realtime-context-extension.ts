// What the thread's model is told of a realtime conversation, as a world-state section (Codex's
// `realtime` key): `<realtime_conversation>` once when a conversation starts, and once when it ends,
// with the client's start or end instructions when it gave them. Recorded with the thread, so a
// resumed thread is not told again.
import { defineContextFragment, defineExtension, type Extension, type JsonValue } from '@skein/extension-api';
import { REALTIME_ENDED_NOTE, REALTIME_STARTED_NOTE } from './realtime-instructions.js';

/** Where a thread's realtime conversation stands, as its model should know it. */
export interface RealtimeContextState {
  readonly active: boolean;
  /** The client's words for the model: `realtimeStartInstructions` while active, `realtimeEndInstructions` after. */
  readonly instructions: string | null;
}

export const REALTIME_CONVERSATION_FRAGMENT = defineContextFragment({
  kind: 'realtime.conversation',
  role: 'developer',
  open: '<realtime_conversation>',
  close: '</realtime_conversation>',
});

/** The built-in extension; `stateOf` answers for a thread, undefined when it never held a conversation. */
export function realtimeContextExtension(stateOf: (threadId: string) => RealtimeContextState | undefined): Extension {
  return defineExtension({
    id: 'realtime',
    fragments: [REALTIME_CONVERSATION_FRAGMENT],
    worldState: [
      {
        sectionId: 'realtime',
        snapshot: (request) => {
          const state = stateOf(request.threadId);
          return Promise.resolve(state === undefined ? null : { active: state.active, instructions: state.instructions });
        },
        renderChange(previous, current) {
          const now = stateFrom(current);
          if (now === undefined) return undefined;
          const before = stateFrom(previous);
          if (now.active === (before?.active ?? false)) return undefined;
          const note = now.instructions ?? (now.active ? REALTIME_STARTED_NOTE : REALTIME_ENDED_NOTE);
          return REALTIME_CONVERSATION_FRAGMENT.render(note).text;
        },
      },
    ],
  });
}

function stateFrom(snapshot: JsonValue | undefined): RealtimeContextState | undefined {
  if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) return undefined;
  const { active, instructions } = snapshot as { readonly active?: unknown; readonly instructions?: unknown };
  return typeof active === 'boolean' ? { active, instructions: typeof instructions === 'string' ? instructions : null } : undefined;
}
