// Command sessions report begin, output and end per call; this turns them into core events, naming
// the turn each command belongs to and whether the model or the user started it.
import type { UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import type { CommandSource, CoreEvent } from '../turn/core-event.js';

/** The core event for one command-session event; `turnId` and `source` are the command's. */
export function commandEvent(event: UnifiedExecEvent, turnId: string, source: CommandSource): CoreEvent {
  switch (event.type) {
    case 'begin':
      return { type: 'commandStarted', turnId, callId: event.callId, command: event.command, cmd: event.cmd, cwd: event.cwd.toNativePath(event.cwd.convention), source };
    case 'outputDelta':
      return { type: 'commandOutputDelta', turnId, callId: event.callId, chunk: Buffer.from(event.chunk).toString('utf8') };
    case 'end':
      return {
        type: 'commandCompleted',
        turnId,
        callId: event.callId,
        command: event.command,
        argv: event.argv,
        cwd: event.cwd.toNativePath(event.cwd.convention),
        processId: String(event.sessionId),
        exitCode: event.exitCode,
        aggregatedOutput: event.aggregatedOutput,
        durationMs: event.durationMs,
        source,
      };
  }
}
