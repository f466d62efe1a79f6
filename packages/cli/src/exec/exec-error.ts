// The ways `skein exec` refuses to run or to finish, each with a stable code; runSkein prints the
// message as `error: …` and exits 1.

/** What went wrong, for callers that switch on it. */
export type ExecErrorCode = 'NotInGitRepository' | 'OutputFileNotWritten' | 'EphemeralResume' | 'UnsupportedApprovalPolicy' | 'RevertFlags';

/** A refusal or failure of `skein exec` the user can act on. */
export class ExecError extends Error {
  readonly code: ExecErrorCode;

  constructor(code: ExecErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ExecError';
    this.code = code;
  }
}
