// Keeps the last bytes a stdio server wrote to stderr, so an exit or a failed start can say why.

/** Bytes of stderr kept per server: enough for a stack trace's head, never a growing buffer. */
export const STDERR_TAIL_BYTES = 4096;

/** A bounded tail of a text stream. */
export class StderrTail {
  #text = '';

  constructor(private readonly limit = STDERR_TAIL_BYTES) {}

  append(chunk: Buffer | string): void {
    const text = this.#text + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    this.#text = text.length > this.limit ? text.slice(text.length - this.limit) : text;
  }

  /** The kept text, trimmed; empty when the server wrote nothing. */
  text(): string {
    return this.#text.trim();
  }
}
