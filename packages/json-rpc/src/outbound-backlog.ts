// OutboundBacklog: the messages a transport was handed and has not written out yet, counted in bytes,
// with the one being written told apart from those waiting behind it.

/** Spent slots at the front are cut off once there are this many (and they are most of the list). */
const COMPACT_AFTER = 1024;

/**
 * What a connection's transport still holds for a client, message by message.
 *
 * The bytes that count as a backlog are those waiting behind the message being written now: a
 * single message bigger than a connection's bound (a large `fs/readFile` answer) is then not a
 * backlog by itself, as it is one entry of a queue of messages.
 *
 * @example
 * const backlog = new OutboundBacklog();
 * socket.write(text, backlog.add(Buffer.byteLength(text)));
 * if (backlog.waitingBytes > limit) hangUp();
 */
export class OutboundBacklog {
  #sizes: number[] = [];
  /** Index of the oldest unwritten message in `#sizes`. */
  #head = 0;
  #bytes = 0;

  /** Records a message of `bytes` handed to the transport; call the returned function once it is written out (transports finish writes in order). */
  add(bytes: number): () => void {
    this.#sizes.push(bytes);
    this.#bytes += bytes;
    return () => this.#written();
  }

  /** Bytes of the unwritten messages behind the one being written now. */
  get waitingBytes(): number {
    return this.#bytes - (this.#sizes[this.#head] ?? 0);
  }

  #written(): void {
    const bytes = this.#sizes[this.#head];
    if (bytes === undefined) return;
    this.#bytes -= bytes;
    this.#head += 1;
    if (this.#head === this.#sizes.length) {
      this.#sizes.length = 0;
      this.#head = 0;
    } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#sizes.length) {
      this.#sizes = this.#sizes.slice(this.#head);
      this.#head = 0;
    }
  }
}
