// A bare WebSocket peer for tests that must send what a well-behaved client never would.
import WebSocket from 'ws';

/** One message received, as parsed JSON. */
export type Received = Record<string, unknown> & { id?: unknown; error?: { code: number; message: string; data?: unknown }; result?: unknown };

/** A raw connection: send any text, await answers by id. */
export class RawConnection {
  private readonly inbox: Received[] = [];
  private readonly waiters: (() => void)[] = [];
  private nextId = 1000;
  /** Close code and reason, once closed. */
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.inbox.push(JSON.parse(data.toString('utf8')) as Received);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string, token?: string): Promise<RawConnection> {
    const socket = new WebSocket(url, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` }, maxPayload: 512 * 1024 * 1024 });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Opens and completes the initialize handshake. */
  static async initialized(url: string, token?: string): Promise<RawConnection> {
    const connection = await RawConnection.open(url, token);
    const answer = await connection.call('initialize', { clientName: 'raw-test' });
    if (answer.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
    connection.send(JSON.stringify({ method: 'initialized' }));
    return connection;
  }

  send(text: string | Buffer): void {
    this.socket.send(text);
  }

  /** Sends a request with a fresh id and waits for its answer. */
  call(method: string, params?: unknown): Promise<Received> {
    const id = this.nextId;
    this.nextId += 1;
    this.send(JSON.stringify({ id, method, params }));
    return this.answer(id);
  }

  /** Waits for the answer with this id. */
  answer(id: unknown): Promise<Received> {
    return this.next((message) => message.id === id && !('method' in message));
  }

  /** Waits for (and removes) the first message matching `predicate`. */
  async next(predicate: (message: Received) => boolean): Promise<Received> {
    for (;;) {
      const index = this.inbox.findIndex(predicate);
      if (index >= 0) return this.inbox.splice(index, 1)[0]!;
      if (this.closed !== undefined) throw new Error(`connection closed (${this.closed.code}) while waiting`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Waits until the server closes the connection. */
  async closedByServer(): Promise<{ code: number; reason: string }> {
    while (this.closed === undefined) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.closed;
  }

  close(): void {
    this.socket.terminate();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
