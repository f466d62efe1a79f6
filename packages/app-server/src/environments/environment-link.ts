// A remote environment as threads hold it: its files and processes go to whichever exec-server
// connection of that id is current, so a thread whose executor went away works again once the
// executor is added (or reconnected) again, without being restarted.
import {
  ExecServerClientError,
  type CopyOptions,
  type CreateDirectoryOptions,
  type ExecutorFileSystem,
  type ExecutorProcesses,
  type FileSystemCallOptions,
  type GetMetadataOptions,
  type ProcessEvent,
  type ProcessSignal,
  type ReadProcessOptions,
  type RemoteExecutor,
  type RemoveOptions,
  type StartProcessParams,
  type TerminalSize,
  type WalkOptions,
} from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';

/** The connection a link routes to, and where it leads. */
interface Connection {
  readonly executor: RemoteExecutor;
  readonly url: string;
}

/** One environment id's route to its current exec-server connection. */
export class EnvironmentLink {
  #current: Connection | undefined;
  readonly #listeners = new Set<(event: ProcessEvent) => void>();

  /** The link's processes: started on the current connection, events from every connection it had. */
  readonly processes: ExecutorProcesses;
  /** The link's filesystem, on the current connection. */
  readonly fileSystem: ExecutorFileSystem;

  /**
   * `reconnect` is tried once when a call finds no open connection (a configured executor is
   * connected again lazily); it never rejects, and the call fails as before when it did not help.
   */
  constructor(
    readonly environmentId: string,
    private readonly reconnect: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.processes = this.#processes();
    this.fileSystem = this.#fileSystem();
  }

  /**
   * Routes later calls to `executor`. Processes started on an earlier connection keep reporting
   * through the link until it closes; those still running then are reported lost, naming the environment.
   */
  attach(executor: RemoteExecutor, url: string): void {
    this.#current = { executor, url };
    executor.processes.subscribe((event) => {
      const named: ProcessEvent = event.type === 'lost' ? { ...event, reason: `environment \`${this.environmentId}\` at ${url}: ${event.reason}` } : event;
      for (const listener of this.#listeners) listener(named);
    });
  }

  /** The current connection (reconnected first when it closed), or the error naming the environment. */
  async #executor(): Promise<RemoteExecutor> {
    if (this.#current === undefined || this.#current.executor.client.closed) await this.reconnect();
    const current = this.#current;
    if (current === undefined) throw new ExecServerClientError('ConnectionClosed', `environment \`${this.environmentId}\` is not connected`);
    if (current.executor.client.closed) {
      throw new ExecServerClientError('ConnectionClosed', `environment \`${this.environmentId}\` is disconnected: the connection to the exec-server at ${current.url} closed`);
    }
    return current.executor;
  }

  /** Runs `call` on the current connection; a connection that closes meanwhile fails naming the environment. */
  async #call<T>(call: (executor: RemoteExecutor) => Promise<T>): Promise<T> {
    const executor = await this.#executor();
    try {
      return await call(executor);
    } catch (error) {
      throw this.#named(error);
    }
  }

  /** A connection that closed under a call names the environment; other failures are the executor's own. */
  #named(error: unknown): unknown {
    if (error instanceof ExecServerClientError && error.code === 'ConnectionClosed') {
      return new ExecServerClientError('ConnectionClosed', `environment \`${this.environmentId}\`: ${error.message}`);
    }
    return error;
  }

  #processes(): ExecutorProcesses {
    return {
      start: (params: StartProcessParams) => this.#call((executor) => executor.processes.start(params)),
      read: (processId: string, options?: ReadProcessOptions) => this.#call((executor) => executor.processes.read(processId, options)),
      write: (processId: string, chunk: Uint8Array, writeId?: string) => this.#call((executor) => executor.processes.write(processId, chunk, writeId)),
      signal: (processId: string, signal: ProcessSignal) => this.#call((executor) => executor.processes.signal(processId, signal)),
      terminate: (processId: string) => this.#call((executor) => executor.processes.terminate(processId)),
      resize: (processId: string, size: TerminalSize) => this.#call((executor) => executor.processes.resize(processId, size)),
      subscribe: (listener: (event: ProcessEvent) => void) => {
        this.#listeners.add(listener);
        return () => this.#listeners.delete(listener);
      },
      // Ends what runs on the current connection; a closed one has nothing left this client can end.
      close: async () => {
        const current = this.#current;
        if (current !== undefined && !current.executor.client.closed) await current.executor.processes.close();
      },
      // A re-added or reconnected exec-server is another machine as far as a shell snapshot goes.
      currentExecutor: () => this.#current?.executor ?? this,
    };
  }

  async *#readFileStream(path: PathUri, options: FileSystemCallOptions | undefined): AsyncIterable<Uint8Array> {
    const stream = (await this.#executor()).fileSystem.readFileStream(path, options);
    try {
      yield* stream;
    } catch (error) {
      throw this.#named(error);
    }
  }

  #fileSystem(): ExecutorFileSystem {
    return {
      canonicalize: (path: PathUri, options?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.canonicalize(path, options)),
      readFile: (path: PathUri, options?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.readFile(path, options)),
      readFileText: (path: PathUri, options?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.readFileText(path, options)),
      readFileStream: (path: PathUri, options?: FileSystemCallOptions) => this.#readFileStream(path, options),
      writeFile: (path: PathUri, data: Uint8Array, options?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.writeFile(path, data, options)),
      createDirectory: (path: PathUri, options?: CreateDirectoryOptions) => this.#call((executor) => executor.fileSystem.createDirectory(path, options)),
      getMetadata: (path: PathUri, options?: GetMetadataOptions) => this.#call((executor) => executor.fileSystem.getMetadata(path, options)),
      readDirectory: (path: PathUri, options?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.readDirectory(path, options)),
      walk: (path: PathUri, options: WalkOptions, callOptions?: FileSystemCallOptions) => this.#call((executor) => executor.fileSystem.walk(path, options, callOptions)),
      remove: (path: PathUri, options?: RemoveOptions) => this.#call((executor) => executor.fileSystem.remove(path, options)),
      copy: (source: PathUri, destination: PathUri, options?: CopyOptions) => this.#call((executor) => executor.fileSystem.copy(source, destination, options)),
    };
  }
}
