// ExecServer: the exec-server service independent of transport. It hands each transport connection
// its own process table and file handles over a shared filesystem, and tears all of them down on close.
import type { JsonRpcService, MessageChannel } from '@skein/json-rpc';
import type { BlockReaderSource } from '../block-reader.js';
import type { ExecutorFileSystem } from '../file-system.js';
import { DEFAULT_CONCURRENT_REQUESTS, DEFAULT_MAX_REQUEST_BYTES } from '../limits.js';
import { LocalFileSystem } from '../local/local-file-system.js';
import { LocalProcesses } from '../local/local-processes.js';
import type { ExecutorProcesses } from '../process-api.js';
import type { EnvironmentInfo } from '../protocol/messages.js';
import { describeEnvironment } from './environment-info.js';
import { ExecServerConnection } from './exec-server-connection.js';

/** How an ExecServer runs; every field has a default suitable for the `skein exec-server` binary. */
export interface ExecServerOptions {
  /** The filesystem served (default: a LocalFileSystem without a sandbox). */
  readonly fileSystem?: (ExecutorFileSystem & BlockReaderSource) | undefined;
  /** Makes each connection's process table (default: LocalProcesses without a sandbox). */
  readonly createProcesses?: (() => ExecutorProcesses) | undefined;
  /** The server's working directory, reported to clients (default `process.cwd()`). */
  readonly cwd?: string | undefined;
  /** The executor's environment, the source for `envPolicy` (default `process.env`). */
  readonly hostEnv?: Readonly<Record<string, string | undefined>> | undefined;
  /** Requests a connection runs at once (default 1, as Codex). */
  readonly concurrentRequests?: number | undefined;
  /** The largest request acted on (default `DEFAULT_MAX_REQUEST_BYTES`). */
  readonly maxRequestBytes?: number | undefined;
  /**
   * Whether sandboxed calls can run here, as reported in the capabilities; may be a probe still
   * running, which `initialize` waits for (the server listens meanwhile).
   */
  readonly sandboxAvailable?: boolean | Promise<boolean> | undefined;
}

/** The service; attach transports with {@link ExecServer.connect}. */
export class ExecServer implements JsonRpcService<ExecServerConnection> {
  private readonly connections = new Set<ExecServerConnection>();
  private readonly fileSystem: ExecutorFileSystem & BlockReaderSource;
  private readonly createProcesses: () => ExecutorProcesses;
  private readonly environment: Promise<EnvironmentInfo>;
  /** The request size limit transports enforce before a message reaches a connection. */
  readonly maxRequestBytes: number;
  private readonly concurrentRequests: number;
  private readonly hostEnv: Readonly<Record<string, string | undefined>>;

  constructor(options: ExecServerOptions = {}) {
    this.fileSystem = options.fileSystem ?? new LocalFileSystem();
    this.createProcesses = options.createProcesses ?? (() => new LocalProcesses());
    const cwd = options.cwd ?? process.cwd();
    this.environment = Promise.resolve(options.sandboxAvailable ?? false).then((sandboxAvailable) => describeEnvironment({ cwd, sandboxAvailable }));
    // A failure reaches the client that asks (initialize, environment/info), not the process.
    this.environment.catch(() => undefined);
    this.maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
    this.concurrentRequests = options.concurrentRequests ?? DEFAULT_CONCURRENT_REQUESTS;
    if (!Number.isInteger(this.concurrentRequests) || this.concurrentRequests < 1) {
      throw new RangeError(`concurrentRequests must be a positive integer, got ${this.concurrentRequests}`);
    }
    this.hostEnv = options.hostEnv ?? process.env;
  }

  /** Starts serving a client over `channel`; the transport calls `disconnect` when it closes. */
  connect(channel: MessageChannel): ExecServerConnection {
    const connection = new ExecServerConnection(channel, {
      fileSystem: this.fileSystem,
      processes: this.createProcesses(),
      environment: () => this.environment,
      hostEnv: this.hostEnv,
      concurrentRequests: this.concurrentRequests,
      maxRequestBytes: this.maxRequestBytes,
    });
    this.connections.add(connection);
    return connection;
  }

  /** Tears a client down: its processes are killed and its files closed. */
  async disconnect(connection: ExecServerConnection): Promise<void> {
    this.connections.delete(connection);
    await connection.dispose();
  }

  /** Disconnects every client. */
  async close(): Promise<void> {
    await Promise.all([...this.connections].map((connection) => this.disconnect(connection)));
  }
}
