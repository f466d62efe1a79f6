// A loopback TCP relay in front of the database, so a test can make the database go away (every
// connection cut, new ones refused) and come back on the same address.
import net from 'node:net';

export class TcpRelay {
  #server: net.Server | undefined;
  readonly #sockets = new Set<net.Socket>();

  private constructor(
    private readonly target: { readonly host: string; readonly port: number },
    /** The port clients connect to. */
    readonly port: number,
  ) {}

  /** Starts relaying from a free loopback port to `target`. */
  static async start(target: { readonly host: string; readonly port: number }): Promise<TcpRelay> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const relay = new TcpRelay(target, port);
    await relay.restore();
    return relay;
  }

  /** Cuts every connection and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections again. */
  async restore(): Promise<void> {
    if (this.#server !== undefined) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.#server = server;
  }
}
