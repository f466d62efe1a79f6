// The remote executor in one call: a connection plus the filesystem and processes that use it.
import { ExecServerClient, type StdioConnectOptions, type WebSocketConnectOptions } from './exec-server-client.js';
import { RemoteFileSystem } from './remote-file-system.js';
import { RemoteProcesses } from './remote-processes.js';

/** A connected exec-server seen through the executor interfaces. */
export interface RemoteExecutor {
  readonly client: ExecServerClient;
  readonly fileSystem: RemoteFileSystem;
  readonly processes: RemoteProcesses;
  /** Closes the connection; the server kills whatever this client left running. */
  close(): Promise<void>;
}

function wrap(client: ExecServerClient): RemoteExecutor {
  return { client, fileSystem: new RemoteFileSystem(client), processes: new RemoteProcesses(client), close: () => client.close() };
}

/**
 * Connects to an exec-server over WebSocket.
 *
 * @example
 * const remote = await connectExecServer({ url: 'ws://127.0.0.1:4500', token });
 * const text = await remote.fileSystem.readFileText(PathUri.parse('file:///etc/hostname'));
 * await remote.close();
 */
export async function connectExecServer(options: WebSocketConnectOptions): Promise<RemoteExecutor> {
  return wrap(await ExecServerClient.connect(options));
}

/** Starts an exec-server process with `--listen stdio` semantics and connects over its stdio. */
export async function spawnExecServer(options: StdioConnectOptions): Promise<RemoteExecutor> {
  return wrap(await ExecServerClient.spawn(options));
}
