// Ids a script leaves open so the server serving it numbers them (`msg_mock_0001`, …): one script can
// be built before the server exists, and every server numbers from 1, so captures are repeatable.

/**
 * A placeholder for an id the mock server assigns when it serves the event holding it. Every use of
 * the same instance within one served response resolves to the same id.
 */
export class DeferredId {
  /** @param prefix the id's kind as OpenAI spells it (`msg`, `fc`, `ctc`, `rs`, `call`, `resp`). */
  constructor(readonly prefix: string) {}

  /** Printing a script before it is served shows where an id will go. */
  toJSON(): string {
    return `<${this.prefix}_mock_?>`;
  }
}

/** The id of the response being served; the server numbers responses on their own counter. */
export const RESPONSE_ID = new DeferredId('resp');

/** An id a builder accepts: a fixed string, or a placeholder the server fills in. */
export type MockId = string | DeferredId;
