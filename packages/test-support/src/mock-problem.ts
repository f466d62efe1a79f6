// What went wrong while the mock server worked, recorded as it happens and reported by `verify()`.
import type { ToolCallViolation } from './tool-call-invariants.js';

/**
 * - `unexpected-request`: a Responses request came when no scripted response was left.
 * - `matcher-mismatch`: a request did not match its scripted response's matcher.
 * - `unknown-route`: a request to anything other than `POST /v1/responses`.
 * - `invalid-body`: a Responses request whose body is not JSON, not a Responses body, or not `stream: true`.
 * - `body-too-large`: a body over the server's `maxBodyBytes`.
 * - `invariant-violation`: a request broke a tool call pairing rule (see `checkToolCallInvariants`).
 * - `unconsumed-response`: a scripted response nobody asked for (added by `verify()`).
 * - `server-error`: the mock itself failed while answering.
 */
export type MockProblemKind =
  | 'unexpected-request'
  | 'matcher-mismatch'
  | 'unknown-route'
  | 'invalid-body'
  | 'body-too-large'
  | 'invariant-violation'
  | 'unconsumed-response'
  | 'server-error';

/** One recorded problem; `message` is complete on its own. */
export interface MockProblem {
  readonly kind: MockProblemKind;
  readonly message: string;
  /** Index in `server.requests` of the request concerned. */
  readonly requestIndex?: number;
  /** Index of the scripted response concerned, counting every response ever scripted on the server. */
  readonly scriptIndex?: number;
  /** Set for `invariant-violation`. */
  readonly violation?: ToolCallViolation;
}
