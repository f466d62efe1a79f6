// `command/exec` and `command/exec/write|resize|terminate`: a standalone command run in the sandbox
// (the client's `sandboxPolicy` or `permissionProfile`, else the configured one), outside any thread.
// Checks, defaults (10 s, 1 MiB per stream) and error texts are Codex 0.171.0's.
import type { Config } from '@skein/config';
import { sandboxContextFor, shellEnvironment } from '@skein/core';
import type { FileSystemSandboxContext } from '@skein/exec-server';
import {
  CommandExecParams,
  CommandExecResizeParams,
  CommandExecTerminateParams,
  CommandExecWriteParams,
  type CommandExecOutputDeltaNotification,
  type CommandExecResponse,
  type SandboxMode,
} from '@skein/protocol';
import { DEFAULT_STANDALONE_OUTPUT_CAP_BYTES, DEFAULT_STANDALONE_TIMEOUT_MS } from '../limits.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { ActiveProcess, ConnectionProcesses } from '../processes/connection-processes.js';
import { outputText, StandaloneProcess } from '../processes/standalone-process.js';
import { badParams, badRequest, checkSize, resizePty, startFailure, stdinBytes, withOverrides, writeStdin } from '../processes/standalone-requests.js';

type SandboxSettings = Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>;

const NO_WORKSPACE_TABLE: SandboxSettings['sandboxWorkspaceWrite'] = { writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false };
// The built-in profiles ignore `[sandbox_workspace_write]`, as in Codex.
const BUILT_IN_PROFILES: Readonly<Record<string, SandboxMode>> = {
  ':read-only': 'read-only',
  ':workspace': 'workspace-write',
  ':danger-full-access': 'danger-full-access',
};

/** The sandbox a command runs under: the client's choice, else the server's configured policy. Null: unconfined. */
function sandboxOf(params: CommandExecParams, config: Config, cwd: string): FileSystemSandboxContext | null {
  if (params.permissionProfile != null) {
    const mode = BUILT_IN_PROFILES[params.permissionProfile];
    // Skein reads no `[permissions]` tables, so a named profile is one Codex would not find either.
    if (mode === undefined) throw badRequest('invalid permission profile: default_permissions requires a `[permissions]` table');
    return sandboxContextFor({ sandboxMode: mode, sandboxWorkspaceWrite: NO_WORKSPACE_TABLE }, cwd);
  }
  const policy = params.sandboxPolicy;
  switch (policy?.type) {
    case undefined:
      return sandboxContextFor(config, cwd);
    case 'dangerFullAccess':
    case 'externalSandbox':
      // Unconfined here: full access, or a sandbox someone else enforces.
      return null;
    case 'readOnly':
      return sandboxContextFor({ sandboxMode: 'read-only', sandboxWorkspaceWrite: NO_WORKSPACE_TABLE }, cwd);
    case 'workspaceWrite':
      return sandboxContextFor({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { ...policy } }, cwd);
  }
}

/** The environment commands get: `[shell_environment_policy]` (Codex keeps `*KEY*`-like names unless told otherwise). */
function commandEnvironment(config: Config): Record<string, string> {
  const policy = config.shellEnvironmentPolicy;
  return shellEnvironment({ ...policy, ignore_default_excludes: policy.ignore_default_excludes ?? true }, process.env);
}

function active(processes: ConnectionProcesses, processId: string): ActiveProcess {
  const entry = processes.commands.get(processId);
  if (entry === undefined) throw badRequest(`no active command/exec for process id ${JSON.stringify(processId)}`);
  return entry;
}

/** The `command/exec` methods. */
export const COMMAND_EXEC_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'command/exec',
    defineMethod({
      params: CommandExecParams,
      async handle(params, { server, connection }): Promise<CommandExecResponse> {
        if (params.command.length === 0) throw badRequest('command must not be empty');
        const tty = params.tty === true;
        const streamStdin = tty || params.streamStdin === true;
        const streamOutput = tty || params.streamStdoutStderr === true;
        const processId = params.processId ?? undefined;
        if ((streamStdin || streamOutput) && processId === undefined) throw badRequest('command/exec tty or streaming requires a client-supplied processId');
        if (params.size != null && !tty) throw badParams('command/exec size requires tty: true');
        if (params.timeoutMs != null && params.disableTimeout === true) throw badParams('command/exec cannot set both timeoutMs and disableTimeout');
        if (params.outputBytesCap != null && params.disableOutputCap === true) throw badParams('command/exec cannot set both outputBytesCap and disableOutputCap');
        if (params.timeoutMs != null && params.timeoutMs < 0) throw badParams(`command/exec timeoutMs must be non-negative, got ${params.timeoutMs}`);
        checkSize('command/exec', params.size);
        if (params.permissionProfile != null && params.sandboxPolicy != null) throw badRequest('`permissionProfile` cannot be combined with `sandboxPolicy`');

        const config = server.config.config;
        const cwd = server.resolveCwd(params.cwd ?? '.');
        const sandbox = sandboxOf(params, config, cwd);
        const owned = server.standaloneProcesses.of(connection);
        if (processId !== undefined && !owned.commands.reserve(processId)) {
          throw badRequest(`duplicate active command/exec process id: ${JSON.stringify(processId)}`);
        }
        try {
          let started: StandaloneProcess;
          try {
            started = await StandaloneProcess.start(owned.local, owned.internalId('exec'), {
              argv: params.command,
              cwd,
              env: withOverrides(commandEnvironment(config), params.env),
              tty,
              pipeStdin: streamStdin,
              size: params.size ?? undefined,
              sandbox,
              capBytes: params.disableOutputCap === true ? null : (params.outputBytesCap ?? DEFAULT_STANDALONE_OUTPUT_CAP_BYTES),
              timeoutMs: params.disableTimeout === true ? null : (params.timeoutMs ?? DEFAULT_STANDALONE_TIMEOUT_MS),
              onDelta: streamOutput
                ? (stream, bytes, capReached) => {
                    const delta: CommandExecOutputDeltaNotification = { processId: processId ?? '', stream, deltaBase64: Buffer.from(bytes).toString('base64'), capReached };
                    connection.notify('command/exec/outputDelta', delta);
                  }
                : undefined,
            });
          } catch (error) {
            throw startFailure(error, 'command');
          }
          if (processId !== undefined) owned.commands.activate(processId, { process: started, stdin: streamStdin, tty });
          const exit = await started.exit;
          return { exitCode: exit.exitCode, stdout: outputText(exit.stdout), stderr: outputText(exit.stderr) };
        } finally {
          if (processId !== undefined) owned.commands.release(processId);
        }
      },
    }),
  ],
  [
    'command/exec/write',
    defineMethod({
      params: CommandExecWriteParams,
      async handle(params, { server, connection }) {
        const bytes = stdinBytes(params, 'command/exec/write');
        await writeStdin(active(server.standaloneProcesses.of(connection), params.processId), bytes, params.closeStdin, 'command/exec');
        return {};
      },
    }),
  ],
  [
    'command/exec/resize',
    defineMethod({
      params: CommandExecResizeParams,
      async handle(params, { server, connection }) {
        checkSize('command/exec', params.size);
        await resizePty(active(server.standaloneProcesses.of(connection), params.processId), params.size);
        return {};
      },
    }),
  ],
  [
    'command/exec/terminate',
    defineMethod({
      params: CommandExecTerminateParams,
      async handle(params, { server, connection }) {
        await active(server.standaloneProcesses.of(connection), params.processId).process.kill();
        return {};
      },
    }),
  ],
]);
