// Questions a turn asks the client and waits on: approvals for commands and patches, and the
// model's request_user_input. The host (app-server, exec) answers them; core never blocks on I/O itself.

/** Decisions a client may give on a command (Codex's wire names). */
export type CommandApprovalDecision =
  | 'accept'
  | 'acceptForSession'
  | { readonly acceptWithExecpolicyAmendment: { readonly execpolicy_amendment: readonly string[] } }
  | 'decline'
  | 'cancel';

/** Decisions a client may give on a patch. */
export type FileChangeApprovalDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';

/** A command that needs the user's consent before it runs. */
export interface CommandApprovalRequest {
  readonly turnId: string;
  /** The tool call's id; the client's item id. */
  readonly callId: string;
  /** The command as shown to the user, e.g. `/bin/bash -lc 'touch x'`. */
  readonly command: string;
  /** The shell command the model wrote, e.g. `touch x`. */
  readonly script: string;
  readonly cwd: string;
  /** The environment the command would run on (`local`, or a remote exec-server's id). */
  readonly environmentId: string;
  /** Why approval is needed: the model's justification, or the sandbox denial. */
  readonly reason?: string | undefined;
  /** A command prefix the user may allow from now on (`acceptWithExecpolicyAmendment`). */
  readonly proposedExecpolicyAmendment?: readonly string[] | undefined;
  readonly availableDecisions: readonly CommandApprovalDecision[];
}

/** A patch that needs the user's consent before it is applied. */
export interface FileChangeApprovalRequest {
  readonly turnId: string;
  readonly callId: string;
  readonly changes: readonly { readonly path: string; readonly kind: 'add' | 'update' | 'delete'; readonly movePath?: string | undefined; readonly diff?: string }[];
  readonly reason?: string | undefined;
  /** A directory the patch writes outside the writable roots, which the user may grant. */
  readonly grantRoot?: string | undefined;
}

/** One question of a request_user_input call. */
export interface UserInputQuestion {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly { readonly label: string; readonly description: string }[] | null;
  readonly isOther: boolean;
  readonly isSecret: boolean;
}

/** The model's questions for the user. */
export interface UserInputRequest {
  readonly turnId: string;
  readonly callId: string;
  readonly questions: readonly UserInputQuestion[];
}

/** The user's answers, keyed by question id. */
export type UserInputAnswers = Readonly<Record<string, { readonly answers: readonly string[] }>>;

/**
 * A question for the user on an MCP server's behalf (`mcpServer/elicitation/request`): the approval
 * of a tool call (a `form` with no fields, `_meta.codex_approval_kind: "mcp_tool_call"`), or a
 * server's own `elicitation/create` — a form to fill, or a URL to visit.
 */
export interface McpElicitationRequest {
  /** The turn it belongs to, if one is running. */
  readonly turnId: string | null;
  readonly serverName: string;
  readonly mode: 'form' | 'url';
  readonly message: string;
  /** The form's JSON Schema (form mode). */
  readonly requestedSchema?: unknown;
  /** Where to send the user (url mode), and the server's id for it. */
  readonly url?: string | undefined;
  readonly elicitationId?: string | undefined;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/** The user's answer: what they did, what they filled in, and (for an approval) how long it holds. */
export interface McpElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: unknown;
  readonly meta?: unknown;
}

/**
 * How a thread reaches its client. Every call may be aborted with the turn (`signal`); a host that
 * cannot ask anyone (a CI run) leaves it out, and core then acts as the approval policy says for
 * "no one to ask".
 */
export interface ClientRequests {
  requestCommandApproval(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandApprovalDecision>;
  requestFileChangeApproval(request: FileChangeApprovalRequest, signal: AbortSignal): Promise<FileChangeApprovalDecision>;
  requestUserInput(request: UserInputRequest, signal: AbortSignal): Promise<UserInputAnswers>;
  /** Asks on an MCP server's behalf; a host without it cannot approve MCP calls that need approval. */
  requestMcpElicitation?(request: McpElicitationRequest, signal: AbortSignal): Promise<McpElicitationAnswer>;
}
