// A notification's params serialised once however many clients get it: a broadcast to a thread's
// subscribers (or to every client) turns them to JSON for the first, and each client's message is
// spliced around that text, byte for byte what serialising the whole message would give.

/** The params of one notification, serialised on first use and shared by every client it goes to. */
export class SharedParams {
  #json: string | undefined;
  #serialised = false;

  constructor(readonly params: unknown) {}

  /** `JSON.stringify(params)`, computed once; `undefined` for params JSON leaves out (`undefined`). */
  get json(): string | undefined {
    if (!this.#serialised) {
      this.#json = JSON.stringify(this.params);
      this.#serialised = true;
    }
    return this.#json;
  }
}

/** `JSON.stringify({ method, params, emittedAtMs })`, with the params already serialised. */
export function notificationText(method: string, params: SharedParams, emittedAtMs: number): string {
  const json = params.json;
  const head = `{"method":${JSON.stringify(method)}`;
  const tail = `"emittedAtMs":${JSON.stringify(emittedAtMs)}}`;
  return json === undefined ? `${head},${tail}` : `${head},"params":${json},${tail}`;
}
