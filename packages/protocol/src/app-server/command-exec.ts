// `command/exec` and its follow-ups: a standalone command (argv) run in the server's sandbox outside
// any thread, buffered or streamed, optionally under a PTY, addressed by a connection-scoped id.
import * as z from 'zod';
import { SandboxPolicy } from './common.js';
import { lazySchema } from '../lazy-schema.js';

/** A PTY size in character cells; zero is refused by the method, not the schema (as Codex). */
export const CommandExecTerminalSize = lazySchema(() => z.object({ cols: z.number().int().min(0).max(65_535), rows: z.number().int().min(0).max(65_535) }));
export type CommandExecTerminalSize = z.infer<typeof CommandExecTerminalSize>;

/** Environment overrides: a string sets the variable, null removes an inherited one. */
export const EnvironmentOverrides = lazySchema(() => z.record(z.string(), z.string().nullable()));
export type EnvironmentOverrides = z.infer<typeof EnvironmentOverrides>;

/** `command/exec`: the answer waits for the exit and follows every output delta of the command. */
export const CommandExecParams = lazySchema(() => z.object({
  command: z.array(z.string()),
  /** Client-chosen id; required for `tty`, streaming and the follow-up methods. */
  processId: z.string().nullish(),
  tty: z.boolean().optional(),
  streamStdin: z.boolean().optional(),
  streamStdoutStderr: z.boolean().optional(),
  /** Per-stream capture cap in bytes (server default when absent). */
  outputBytesCap: z.number().int().min(0).nullish(),
  disableOutputCap: z.boolean().optional(),
  disableTimeout: z.boolean().optional(),
  timeoutMs: z.number().int().nullish(),
  /** Relative to the server's working directory when not absolute. */
  cwd: z.string().nullish(),
  env: EnvironmentOverrides.nullish(),
  size: CommandExecTerminalSize.nullish(),
  sandboxPolicy: SandboxPolicy.nullish(),
  permissionProfile: z.string().nullish(),
}));
export type CommandExecParams = z.infer<typeof CommandExecParams>;

/** The final answer; a streamed stream is empty here. */
export const CommandExecResponse = lazySchema(() => z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() }));
export type CommandExecResponse = z.infer<typeof CommandExecResponse>;

/** Writes stdin bytes (base64), closes stdin, or both. */
export const CommandExecWriteParams = lazySchema(() => z.object({ processId: z.string(), deltaBase64: z.string().nullish(), closeStdin: z.boolean().optional() }));
export type CommandExecWriteParams = z.infer<typeof CommandExecWriteParams>;

export const CommandExecResizeParams = lazySchema(() => z.object({ processId: z.string(), size: CommandExecTerminalSize }));
export type CommandExecResizeParams = z.infer<typeof CommandExecResizeParams>;

export const CommandExecTerminateParams = lazySchema(() => z.object({ processId: z.string() }));
export type CommandExecTerminateParams = z.infer<typeof CommandExecTerminateParams>;

/** Which stream a delta came from; PTY output is `stdout`. */
export const CommandExecOutputStream = lazySchema(() => z.enum(['stdout', 'stderr']));
export type CommandExecOutputStream = z.infer<typeof CommandExecOutputStream>;

/** `command/exec/outputDelta`: `capReached` marks the last chunk of a stream the cap cut short. */
export const CommandExecOutputDeltaNotification = lazySchema(() => z.object({
  processId: z.string(),
  stream: CommandExecOutputStream,
  deltaBase64: z.string(),
  capReached: z.boolean(),
}));
export type CommandExecOutputDeltaNotification = z.infer<typeof CommandExecOutputDeltaNotification>;
