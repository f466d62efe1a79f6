// `process/*`: a standalone process on the server's host, unsandboxed (as Codex), addressed by a
// connection-scoped handle; its output and exit arrive as `process/outputDelta` and `process/exited`.
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';
import { CommandExecOutputStream, CommandExecTerminalSize, EnvironmentOverrides } from './command-exec.js';
import { lazySchema } from '../lazy-schema.js';

/** `process/spawn`: answers once the process runs. `outputBytesCap` / `timeoutMs` null disable the bound. */
export const ProcessSpawnParams = lazySchema(() => z.object({
  command: z.array(z.string()),
  processHandle: z.string(),
  cwd: AbsolutePath,
  tty: z.boolean().optional(),
  streamStdin: z.boolean().optional(),
  streamStdoutStderr: z.boolean().optional(),
  outputBytesCap: z.number().int().min(0).nullish(),
  timeoutMs: z.number().int().nullish(),
  env: EnvironmentOverrides.nullish(),
  size: CommandExecTerminalSize.nullish(),
}));
export type ProcessSpawnParams = z.infer<typeof ProcessSpawnParams>;

export const ProcessWriteStdinParams = lazySchema(() => z.object({ processHandle: z.string(), deltaBase64: z.string().nullish(), closeStdin: z.boolean().optional() }));
export type ProcessWriteStdinParams = z.infer<typeof ProcessWriteStdinParams>;

export const ProcessResizePtyParams = lazySchema(() => z.object({ processHandle: z.string(), size: CommandExecTerminalSize }));
export type ProcessResizePtyParams = z.infer<typeof ProcessResizePtyParams>;

export const ProcessKillParams = lazySchema(() => z.object({ processHandle: z.string() }));
export type ProcessKillParams = z.infer<typeof ProcessKillParams>;

/** `process/outputDelta`. */
export const ProcessOutputDeltaNotification = lazySchema(() => z.object({
  processHandle: z.string(),
  stream: CommandExecOutputStream,
  deltaBase64: z.string(),
  capReached: z.boolean(),
}));
export type ProcessOutputDeltaNotification = z.infer<typeof ProcessOutputDeltaNotification>;

/** `process/exited`: the last message about a handle; streamed output is not repeated here. */
export const ProcessExitedNotification = lazySchema(() => z.object({
  processHandle: z.string(),
  exitCode: z.number().int(),
  outputDrainTimedOut: z.boolean().nullish(),
  stdout: z.string(),
  stdoutCapReached: z.boolean(),
  stderr: z.string(),
  stderrCapReached: z.boolean(),
}));
export type ProcessExitedNotification = z.infer<typeof ProcessExitedNotification>;
