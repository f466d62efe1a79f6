// Commands the user runs in a thread (a client's `thread/shellCommand`): run unconfined on the
// thread's environment until they exit or time out, then shown to the model as a
// `<user_shell_command>` message so it knows what the user did.
import { USER_SHELL_COMMAND_FRAGMENT, type PathUri, type ResponseItem } from '@skein/protocol';
import type { UnifiedExecSessions } from '../tools/unified-exec/unified-exec-sessions.js';

/** What a client hears when the thread has no environment to run commands on. */
export const USER_SHELL_UNAVAILABLE = 'shell is unavailable in this session';

/** The longest a user command runs when the client sets no timeout (an hour, as Codex). */
export const DEFAULT_USER_SHELL_TIMEOUT_MS = 60 * 60_000;

// The first wait, before the command is kept as a session that an interrupt can kill.
const FIRST_WAIT_MS = 250;

/** How a user command ended. */
export interface UserShellResult {
  /** Null when it was killed at the timeout. */
  readonly exitCode: number | null;
  readonly output: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
}

/**
 * Runs `command` through the thread's sessions until it exits or `timeoutMs` passes (then it is
 * killed). An abort of `signal` kills it too, and rethrows the abort.
 */
export async function runUserShellCommand(
  sessions: UnifiedExecSessions,
  options: {
    readonly callId: string;
    readonly command: string;
    readonly cwd: PathUri;
    readonly timeoutMs?: number | undefined;
    readonly signal: AbortSignal;
    readonly monotonicMs: () => number;
  },
): Promise<UserShellResult> {
  const started = options.monotonicMs();
  const deadline = started + (options.timeoutMs ?? DEFAULT_USER_SHELL_TIMEOUT_MS);
  const remaining = () => Math.max(0, deadline - options.monotonicMs());
  const chunks: string[] = [];
  // The user's own output is not the model's to budget; keep it whole (the history cap still applies).
  const unlimited = Number.MAX_SAFE_INTEGER;
  let response = await sessions.execCommand({
    callId: options.callId,
    cmd: options.command,
    cwd: options.cwd,
    sandbox: null,
    yieldTimeMs: Math.min(remaining(), FIRST_WAIT_MS),
    maxOutputTokens: unlimited,
  });
  chunks.push(response.output);
  try {
    while (response.sessionId !== null && remaining() > 0) {
      options.signal.throwIfAborted();
      response = await sessions.writeStdin({ sessionId: response.sessionId, chars: '', yieldTimeMs: remaining(), maxOutputTokens: unlimited, signal: options.signal });
      chunks.push(response.output);
    }
  } catch (error) {
    if (response.sessionId !== null) await sessions.terminate(response.sessionId);
    throw error;
  }
  const timedOut = response.sessionId !== null;
  if (response.sessionId !== null) await sessions.terminate(response.sessionId);
  return { exitCode: response.exitCode, output: chunks.join(''), durationMs: options.monotonicMs() - started, timedOut };
}

/** The user message that tells the model about a user command and its result. */
export function userShellCommandMessage(command: string, result: UserShellResult): ResponseItem {
  const status = result.timedOut ? 'Timed out' : `Exit code: ${result.exitCode ?? -1}`;
  const body = [
    '<command>',
    command,
    '</command>',
    '<result>',
    status,
    `Duration: ${(result.durationMs / 1000).toFixed(4)} seconds`,
    'Output:',
    result.output,
    '</result>',
  ].join('\n');
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: USER_SHELL_COMMAND_FRAGMENT.render(body).text }] };
}
