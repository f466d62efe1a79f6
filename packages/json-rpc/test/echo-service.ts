// A minimal JSON-RPC service for the transport tests: answers every request with its params and
// records what it saw, so a test can tell what reached the service and what the transport refused.
import type { JsonRpcService, JsonRpcServiceConnection } from '../src/json-rpc-service.js';
import type { MessageChannel } from '../src/message-channel.js';

/** One connected client of the echo service. */
export interface EchoConnection extends JsonRpcServiceConnection {
  readonly channel: MessageChannel;
}

/** Echoes `{id, method, params}` back as `{id, result: params}`; oversized messages are answered with an error. */
export class EchoService implements JsonRpcService<EchoConnection> {
  readonly received: string[] = [];
  readonly connections = new Set<EchoConnection>();
  closed = 0;

  constructor(readonly maxRequestBytes = 1024) {}

  connect(channel: MessageChannel): EchoConnection {
    const received = this.received;
    const connection: EchoConnection = {
      channel,
      receive(text) {
        received.push(text);
        const message = JSON.parse(text) as { id?: number; params?: unknown };
        if (message.id !== undefined) channel.send(JSON.stringify({ id: message.id, result: message.params ?? null }));
      },
      receiveOversized(_head, bytes) {
        channel.send(JSON.stringify({ id: -1, error: { code: -32600, message: `too big: ${bytes}` } }));
      },
      drain: () => Promise.resolve(),
    };
    this.connections.add(connection);
    return connection;
  }

  disconnect(connection: EchoConnection): Promise<void> {
    this.connections.delete(connection);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed += 1;
    this.connections.clear();
    return Promise.resolve();
  }
}
