// What a running tool can reach: its call, the environment it runs in, approvals, nested calls and
// progress. Core builds one per call; built-in tools and extension tools get the same context.
import type { ExecutorFileSystem, ExecutorProcesses, FileSystemSandboxContext } from '@skein/exec-server';
import type { CoreSandboxPolicy, PathConvention, PathUri } from '@skein/protocol';
import type { JsonValue } from './world-state-contributor.js';
import type { ToolResult } from './tool-result.js';

/** The operating system family of an environment, as the model is told it. */
export type EnvironmentOs = 'linux' | 'macos' | 'windows';

/** The machine a call acts on: this one, or a remote executor. */
export interface ToolEnvironment {
  /** `local`, or a remote executor's id; part of every approval key. */
  readonly id: string;
  readonly fileSystem: ExecutorFileSystem;
  readonly processes: ExecutorProcesses;
  /** The turn's working directory on that machine. */
  readonly cwd: PathUri;
  readonly os: EnvironmentOs;
  /** How native paths are spelled there (`/a/b` or `C:\a\b`). */
  readonly pathConvention: PathConvention;
  /** The thread's sandbox policy, as configured. */
  readonly sandboxPolicy: CoreSandboxPolicy;
  /** What file operations and commands carry to the executor; null when unconfined. */
  readonly sandbox: FileSystemSandboxContext | null;
}

/** A command a tool wants to run, for the approval layer. */
export interface CommandApprovalCall {
  /** The argv the executor would run (`/bin/bash -lc 'touch x'`). */
  readonly argv: readonly string[];
  /** The argv as one display line. */
  readonly command: string;
  /** The script inside it, as the model wrote it. */
  readonly script: string;
  /** Absolute native path the command runs in. */
  readonly cwd: string;
  /** The model asked to run outside the sandbox. */
  readonly escalate: boolean;
  /** Runs under a pseudo-terminal (part of the approve-for-session key). */
  readonly tty: boolean;
  readonly justification?: string | undefined;
  readonly prefixRule?: readonly string[] | undefined;
}

/** A file a patch would change, as the client is shown it. */
export interface PatchApprovalChange {
  /** Absolute native path. */
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  readonly movePath?: string | undefined;
  readonly diff?: string;
}

/** Go ahead (confined or not; `approved` when the user said so), or tell the model why not. */
export type Authorization =
  | { readonly type: 'run'; readonly sandboxed: boolean; readonly approved?: boolean }
  | { readonly type: 'rejected'; readonly output: string };

/**
 * The thread's approvals, bound to the call: policy, exec-policy rules and the client's answers
 * decide. Keys include the environment id, so an approval on one machine does not carry to another.
 */
export interface ToolApprovals {
  command(call: CommandApprovalCall): Promise<Authorization>;
  /** After the sandbox denied a command: whether to run it again unconfined (undefined: do not ask). */
  retryWithoutSandbox(call: CommandApprovalCall, alreadyApproved: boolean): Promise<Authorization | undefined>;
  /** `patch` is the patch's text, which PermissionRequest hooks are shown. */
  patch(changes: readonly PatchApprovalChange[], patch?: string): Promise<Authorization>;
}

/** Input for a nested call: the arguments of a function tool (a string is taken as their JSON text), the text of a custom tool. */
export type ToolInput = JsonValue | string;

/**
 * A question for the user, asked as Codex asks on a server's behalf (`mcpServer/elicitation/request`):
 * a `form` to fill (an empty schema for a yes or no) with `meta` telling a client what it is about.
 */
export interface ToolElicitation {
  /** The server the question is asked for (`codex_apps` for Codex's own suggestions). */
  readonly serverName: string;
  readonly message: string;
  readonly requestedSchema: JsonValue;
  readonly meta?: Readonly<Record<string, JsonValue>> | undefined;
}

/** What the user did; no answer (no client, an error) is a decline. */
export interface ToolElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: unknown;
}

/** What a running tool knows and may do. */
export interface ToolContext {
  readonly callId: string;
  readonly turnId: string;
  /** Aborted when the turn is interrupted. */
  readonly signal: AbortSignal;
  /**
   * Where this call runs. Undefined when the thread has no environment (then only tools that need
   * none run). To run a command, prefer `dispatch('exec_command', …)`: it goes through approvals
   * and the sandbox and the client sees it; `processes` is the raw executor API.
   */
  readonly environment: ToolEnvironment | undefined;
  /**
   * Every environment the thread has attached, the primary first (Codex lets a call name one with
   * `environment_id`; core routes such calls, so `environment` is already the named one).
   */
  readonly environments?: readonly ToolEnvironment[] | undefined;
  readonly approvals: ToolApprovals;
  /**
   * Calls another tool through the same router, approvals and sandbox; the client sees its items as
   * for a direct call. `namespace` names a namespaced tool's group. Failures come back as results.
   */
  dispatch(name: string, input: ToolInput, options?: { readonly namespace?: string }): Promise<ToolResult>;
  /**
   * Reports how the call is getting on, as a `toolProgress` core event (readable `skein exec`
   * output prints it; Codex's app-server and JSON streams have no notification for it outside MCP
   * tool calls, so those clients do not see it).
   */
  progress(message: string): void;
  /**
   * Asks the thread's client a question (see {@link ToolElicitation}); undefined when the host has
   * no one to ask (a CI run), when a tool must act as if declined.
   */
  readonly elicit?: ((question: ToolElicitation) => Promise<ToolElicitationAnswer>) | undefined;
}
