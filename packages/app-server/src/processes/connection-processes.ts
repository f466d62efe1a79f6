// Who owns standalone processes: each connection has its own process table and its own namespaces of
// client ids (`command/exec` processIds, `process/spawn` handles). A connection's processes are killed
// when it closes, and every connection's when the server stops, so no child outlives its owner.
import { LocalProcesses, PlatformSandbox } from '@skein/exec-server';
import type { ClientConnection } from '../method.js';
import type { StandaloneProcess } from './standalone-process.js';

/** A running process under its client id. */
export interface ActiveProcess {
  readonly process: StandaloneProcess;
  /** Whether the client may write stdin (`streamStdin` or `tty`). */
  readonly stdin: boolean;
  readonly tty: boolean;
}

/** One client namespace: ids are reserved while a start is under way and free again once the process exits. */
export class ProcessNamespace {
  readonly #entries = new Map<string, ActiveProcess | 'starting'>();

  /** False when `id` is taken by a process that has not exited. */
  reserve(id: string): boolean {
    if (this.#entries.has(id)) return false;
    this.#entries.set(id, 'starting');
    return true;
  }

  activate(id: string, entry: ActiveProcess): void {
    this.#entries.set(id, entry);
  }

  release(id: string): void {
    this.#entries.delete(id);
  }

  /** The running process under `id`, if it has started and not exited. */
  get(id: string): ActiveProcess | undefined {
    const entry = this.#entries.get(id);
    return entry === 'starting' ? undefined : entry;
  }
}

/** The standalone processes of one connection. */
export class ConnectionProcesses {
  /** Runs them; confined ones go through the platform sandbox (a start fails rather than run unconfined). */
  readonly local = new LocalProcesses({ sandbox: new PlatformSandbox() });
  readonly commands = new ProcessNamespace();
  readonly spawned = new ProcessNamespace();
  #next = 1;

  /** An id for the process table, never a client's. */
  internalId(kind: 'exec' | 'spawn'): string {
    return `${kind}-${this.#next++}`;
  }

  close(): Promise<void> {
    return this.local.close();
  }
}

/** Every connection's standalone processes, for the server. */
export class StandaloneProcesses {
  readonly #byConnection = new Map<ClientConnection, ConnectionProcesses>();
  readonly #closing = new Set<Promise<void>>();

  /** The connection's processes; created on first use and closed when the connection closes. */
  of(connection: ClientConnection): ConnectionProcesses {
    let processes = this.#byConnection.get(connection);
    if (processes !== undefined) return processes;
    processes = new ConnectionProcesses();
    this.#byConnection.set(connection, processes);
    connection.onClose(() => this.#release(connection));
    return processes;
  }

  /** Kills every connection's processes and waits until they are gone. */
  async close(): Promise<void> {
    for (const connection of [...this.#byConnection.keys()]) this.#release(connection);
    await Promise.all([...this.#closing]);
  }

  #release(connection: ClientConnection): void {
    const processes = this.#byConnection.get(connection);
    if (processes === undefined) return;
    this.#byConnection.delete(connection);
    const closing = processes.close().finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
  }
}
