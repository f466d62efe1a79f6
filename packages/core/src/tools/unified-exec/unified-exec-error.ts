// UnifiedExecError: the failures of exec_command / write_stdin the model reads as the tool output
// (the router prefixes `<tool> failed: `).
import * as z from 'zod';
import { lazySchema } from '@skein/protocol';

/** Stable reasons a unified-exec call fails. */
export const UnifiedExecErrorCode = lazySchema(() => z.enum(['UnknownSession', 'StdinClosed', 'EmptyCommand', 'InvalidWorkdir', 'Closed', 'ExecutorLost']));
export type UnifiedExecErrorCode = z.infer<typeof UnifiedExecErrorCode>;

/** A unified-exec failure with a stable `code` and a message meant for the model. */
export class UnifiedExecError extends Error {
  override readonly name = 'UnifiedExecError';
  readonly code: UnifiedExecErrorCode;

  constructor(code: UnifiedExecErrorCode, message: string) {
    super(message);
    this.code = code;
  }

  /** The session does not exist (never started, already exited and reported, or pruned). */
  static unknownSession(sessionId: number): UnifiedExecError {
    return new UnifiedExecError('UnknownSession', `Unknown process id ${sessionId}`);
  }
}
