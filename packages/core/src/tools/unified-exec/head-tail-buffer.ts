// HeadTailBuffer: a byte buffer that keeps the start and the end of a stream within a fixed budget and
// counts what it dropped in between, so a chatty command cannot grow memory without bound.

/** Bytes in arrival order, bounded: the first half of the budget and the most recent half are kept. */
export class HeadTailBuffer {
  readonly #headBudget: number;
  readonly #tailBudget: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #omitted = 0;

  constructor(maxBytes: number) {
    this.#headBudget = Math.floor(maxBytes / 2);
    this.#tailBudget = maxBytes - this.#headBudget;
  }

  /** Bytes dropped from the middle so far. */
  get omittedBytes(): number {
    return this.#omitted;
  }

  /** Bytes held. */
  get size(): number {
    return this.#headBytes + this.#tailBytes;
  }

  push(chunk: Uint8Array): void {
    let rest = Buffer.from(chunk);
    const headRoom = this.#headBudget - this.#headBytes;
    if (headRoom > 0) {
      const taken = rest.subarray(0, headRoom);
      this.#head.push(taken);
      this.#headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes > this.#tailBudget) {
      const first = this.#tail[0];
      if (first === undefined) break;
      const excess = this.#tailBytes - this.#tailBudget;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#omitted += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#omitted += excess;
      }
    }
  }

  /** Everything held, in order (the dropped middle simply missing). */
  bytes(): Buffer {
    return Buffer.concat([...this.#head, ...this.#tail]);
  }

  /** Returns everything held and empties the buffer. */
  drain(): Buffer {
    const all = this.bytes();
    this.#head = [];
    this.#tail = [];
    this.#headBytes = 0;
    this.#tailBytes = 0;
    this.#omitted = 0;
    return all;
  }
}
