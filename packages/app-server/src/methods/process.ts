// `process/spawn|writeStdin|resizePty|kill` (experimental, as in Codex): a standalone process on the
// server's host, deliberately unsandboxed as Codex runs it, with the app-server's own environment. The
// answer comes once it runs; `process/outputDelta` and a final `process/exited` follow.
import {
  ProcessKillParams,
  ProcessResizePtyParams,
  ProcessSpawnParams,
  ProcessWriteStdinParams,
  type ProcessExitedNotification,
  type ProcessOutputDeltaNotification,
} from '@skein/protocol';
import { DEFAULT_STANDALONE_OUTPUT_CAP_BYTES, DEFAULT_STANDALONE_TIMEOUT_MS } from '../limits.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { ActiveProcess, ConnectionProcesses } from '../processes/connection-processes.js';
import { outputText, StandaloneProcess } from '../processes/standalone-process.js';
import { badParams, badRequest, checkSize, resizePty, startFailure, stdinBytes, withOverrides, writeStdin } from '../processes/standalone-requests.js';

function active(processes: ConnectionProcesses, processHandle: string): ActiveProcess {
  const entry = processes.spawned.get(processHandle);
  if (entry === undefined) throw badRequest(`no active process for process handle ${JSON.stringify(processHandle)}`);
  return entry;
}

/** The `process/*` methods. */
export const PROCESS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'process/spawn',
    defineMethod({
      params: ProcessSpawnParams,
      experimental: true,
      async handle(params, { server, connection }) {
        if (params.command.length === 0) throw badRequest('command must not be empty');
        if (params.processHandle === '') throw badRequest('processHandle must not be empty');
        const tty = params.tty === true;
        const streamStdin = tty || params.streamStdin === true;
        const streamOutput = tty || params.streamStdoutStderr === true;
        if (params.size != null && !tty) throw badParams('process/spawn size requires tty: true');
        if (params.timeoutMs != null && params.timeoutMs < 0) throw badParams(`process/spawn timeoutMs must be non-negative, got ${params.timeoutMs}`);
        checkSize('process', params.size);

        const handle = params.processHandle;
        const owned = server.standaloneProcesses.of(connection);
        if (!owned.spawned.reserve(handle)) throw badRequest(`duplicate active process handle: ${JSON.stringify(handle)}`);
        let started: StandaloneProcess;
        try {
          started = await StandaloneProcess.start(owned.local, owned.internalId('spawn'), {
            argv: params.command,
            cwd: params.cwd,
            env: withOverrides(process.env, params.env),
            tty,
            pipeStdin: streamStdin,
            size: params.size ?? undefined,
            sandbox: null,
            // Absent: the default; null: no cap (as Codex), within the hard bound.
            capBytes: params.outputBytesCap === undefined ? DEFAULT_STANDALONE_OUTPUT_CAP_BYTES : params.outputBytesCap,
            timeoutMs: params.timeoutMs === undefined ? DEFAULT_STANDALONE_TIMEOUT_MS : params.timeoutMs,
            onDelta: streamOutput
              ? (stream, bytes, capReached) => {
                  const delta: ProcessOutputDeltaNotification = { processHandle: handle, stream, deltaBase64: Buffer.from(bytes).toString('base64'), capReached };
                  connection.notify('process/outputDelta', delta);
                }
              : undefined,
          });
        } catch (error) {
          owned.spawned.release(handle);
          throw startFailure(error, 'process');
        }
        owned.spawned.activate(handle, { process: started, stdin: streamStdin, tty });
        void started.exit.then((exit) => {
          // Free the handle first: a client may reuse it as soon as it reads `process/exited`.
          owned.spawned.release(handle);
          const exited: ProcessExitedNotification = {
            processHandle: handle,
            exitCode: exit.exitCode,
            outputDrainTimedOut: false,
            stdout: outputText(exit.stdout),
            stdoutCapReached: exit.stdoutCapReached,
            stderr: outputText(exit.stderr),
            stderrCapReached: exit.stderrCapReached,
          };
          connection.notify('process/exited', exited);
        });
        return {};
      },
    }),
  ],
  [
    'process/writeStdin',
    defineMethod({
      params: ProcessWriteStdinParams,
      experimental: true,
      async handle(params, { server, connection }) {
        const bytes = stdinBytes(params, 'process/writeStdin');
        await writeStdin(active(server.standaloneProcesses.of(connection), params.processHandle), bytes, params.closeStdin, 'process');
        return {};
      },
    }),
  ],
  [
    'process/resizePty',
    defineMethod({
      params: ProcessResizePtyParams,
      experimental: true,
      async handle(params, { server, connection }) {
        checkSize('process', params.size);
        await resizePty(active(server.standaloneProcesses.of(connection), params.processHandle), params.size);
        return {};
      },
    }),
  ],
  [
    'process/kill',
    defineMethod({
      params: ProcessKillParams,
      experimental: true,
      async handle(params, { server, connection }) {
        await active(server.standaloneProcesses.of(connection), params.processHandle).process.kill();
        return {};
      },
    }),
  ],
]);
