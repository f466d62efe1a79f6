// One running sandboxed fs helper: started through @skein/sandboxing under the call's policy, asked one
// request at a time, and shut down by ending its input. A helper that dies answers every pending call.
import type { ChildProcess } from 'node:child_process';
import { prepareSandboxedSpawn, spawnSandboxed } from '@skein/sandboxing';
import { FileSystemError } from '../file-system-error.js';
import { HelperResponse, MAX_HELPER_LINE_BYTES, type HelperOperation } from '../internal/helper-protocol.js';
import type { FileSystemSandboxContext } from '../sandbox-context.js';
import { LineSplitter } from '@skein/json-rpc/framing';
import { sandboxFailure, toSandboxRequest } from './sandbox-request.js';

// Enough of the helper's (or bwrap's) stderr to explain a failure.
const STDERR_LIMIT = 4096;

/** Where the helper lives and what it runs in. */
export interface FsHelperSettings {
  /** The Node.js binary that runs the helper. */
  readonly nodePath: string;
  /** The built helper script (dist/fs-helper.js). */
  readonly helperPath: string;
  /** Working directory when the context names none. */
  readonly fallbackCwd: string;
  /** The executor's environment; only PATH (to find bwrap) and TMPDIR (it resolves `tmpdir` entries) are used. */
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A helper process under one sandbox context. */
export class FsHelperSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';
  private exit: FileSystemError | undefined;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    const splitter = new LineSplitter(MAX_HELPER_LINE_BYTES, {
      line: (text) => this.onLine(text),
      oversized: (_head, bytes) => this.failAll(new FileSystemError('Io', `the sandboxed fs helper sent an answer of ${bytes} bytes, over the limit`)),
    });
    child.stdout?.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      if (this.stderr.length < STDERR_LIMIT) this.stderr = (this.stderr + chunk.toString('utf8')).slice(0, STDERR_LIMIT);
    });
    child.stdin?.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        this.failAll(new FileSystemError('SandboxUnavailable', `could not start the sandboxed fs helper: ${error.message}`));
        resolve();
      });
      child.once('close', (code, signal) => {
        const why = this.stderr.trim() === '' ? `exit ${code ?? signal}` : this.stderr.trim();
        this.failAll(new FileSystemError('SandboxUnavailable', `the sandboxed fs helper stopped before answering: ${why}`));
        resolve();
      });
    });
  }

  /** Starts a helper confined by `context`. Throws FileSystemError 'SandboxUnavailable' when it cannot be. */
  static async start(context: FileSystemSandboxContext, settings: FsHelperSettings): Promise<FsHelperSession> {
    const env: Record<string, string> = {};
    for (const name of ['PATH', 'TMPDIR']) {
      const value = settings.hostEnv[name];
      if (value !== undefined) env[name] = value;
    }
    try {
      const request = toSandboxRequest(context, {
        fallbackCwd: settings.fallbackCwd,
        env,
        extraReadable: [settings.nodePath, settings.helperPath],
      });
      const spec = await prepareSandboxedSpawn(request, [settings.nodePath, settings.helperPath]);
      if (!spec.sandboxed) {
        throw new FileSystemError('SandboxUnavailable', 'the sandbox would not confine the fs helper, so the call is refused');
      }
      // `/`: every path the helper gets is absolute, and `/` exists inside any sandbox.
      return new FsHelperSession(spawnSandboxed(spec, { cwd: '/', env, stdio: ['pipe', 'pipe', 'pipe'] }));
    } catch (error) {
      throw sandboxFailure(error) ?? error;
    }
  }

  /** Sends one request and resolves with its result; rejects with the FileSystemError the helper reported. */
  request(op: HelperOperation, params: unknown): Promise<unknown> {
    if (this.exit !== undefined) return Promise.reject(this.exit);
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin?.write(`${JSON.stringify({ id, op, params })}\n`);
    });
  }

  /** Ends the helper's input and waits for it to exit. */
  async close(): Promise<void> {
    this.child.stdin?.end();
    await this.exited;
  }

  private onLine(text: string): void {
    let response: HelperResponse;
    try {
      response = HelperResponse.parse(JSON.parse(text));
    } catch {
      this.failAll(new FileSystemError('Io', `the sandboxed fs helper answered something unreadable: ${text.slice(0, 200)}`));
      return;
    }
    if (response.id === -1 && 'error' in response) {
      this.failAll(new FileSystemError(response.error.code, response.error.message, response.error.errno));
      return;
    }
    const waiting = this.pending.get(response.id);
    if (waiting === undefined) return;
    this.pending.delete(response.id);
    if ('error' in response) waiting.reject(new FileSystemError(response.error.code, response.error.message, response.error.errno));
    else waiting.resolve(response.result);
  }

  private failAll(error: FileSystemError): void {
    this.exit ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
