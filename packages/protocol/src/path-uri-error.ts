// PathUriError: every way a PathUri operation can reject its input, as a stable code.

/** Stable codes for every way a path can be rejected; callers switch on these, never on messages. */
export type PathUriErrorCode =
  | 'NotFileScheme'
  | 'QueryNotAllowed'
  | 'FragmentNotAllowed'
  | 'CredentialsNotAllowed'
  | 'PortNotAllowed'
  | 'InvalidHost'
  | 'MissingShare'
  | 'EncodedSeparator'
  | 'NulNotAllowed'
  | 'MalformedEscape'
  | 'NotAbsolute'
  | 'AbsoluteSegment'
  | 'InvalidSegment'
  | 'DriveLetterSegment'
  | 'EscapesRoot'
  | 'NotRepresentable';

/** Raised by every PathUri operation that rejects its input; `input` is the offending text. */
export class PathUriError extends Error {
  override readonly name = 'PathUriError';
  /** Why the input was rejected. */
  readonly code: PathUriErrorCode;
  /** The URI, native path or join segment that was rejected. */
  readonly input: string;

  constructor(code: PathUriErrorCode, reason: string, input: string) {
    // JSON.stringify makes NUL, control characters and trailing spaces visible in logs.
    super(`${reason}: ${JSON.stringify(input)}`);
    this.code = code;
    this.input = input;
  }
}

/** Throws the PathUriError for `input`. */
export function fail(code: PathUriErrorCode, reason: string, input: string): never {
  throw new PathUriError(code, reason, input);
}
