// A loaded thread's questions to its clients: approvals for commands and patches, and the model's
// request_user_input, sent as server requests to the thread's subscribers, with the thread's status
// flags set while they wait and `serverRequest/resolved` once they are settled.
import type {
  ClientRequests,
  CommandApprovalDecision,
  CommandApprovalRequest,
  FileChangeApprovalDecision,
  FileChangeApprovalRequest,
  McpElicitationAnswer,
  McpElicitationRequest,
  UserInputAnswers,
  UserInputRequest,
} from '@skein/core';
import { CommandExecutionApprovalResponse, FileChangeApprovalResponse, ToolRequestUserInputResponse } from '@skein/protocol';
import * as z from 'zod';
import { ServerRequestError } from '../app-server-error.js';
import type { ThreadHost } from './live-thread.js';

/** A client's answer to `mcpServer/elicitation/request`. */
const ElicitationResponse = z.looseObject({ action: z.enum(['accept', 'decline', 'cancel']), content: z.unknown().optional(), _meta: z.unknown().optional() });

/** What a thread shows while one of its questions waits for an answer. */
export type ActiveFlag = 'waitingOnApproval' | 'waitingOnUserInput';

/** What the questions need from the thread they belong to. */
export interface QuestioningThread {
  /** The thread's id (known once core opened it). */
  id(): string;
  readonly host: ThreadHost;
  setFlag(flag: ActiveFlag, on: boolean): void;
  /** Where requests an interrupt withdraws wait until the running turn ends (undefined outside a turn). */
  openRequests(): number[] | undefined;
  emit(method: string, params: unknown): void;
}

/** The thread's `ClientRequests`, as server requests to its subscribers. */
export class ThreadQuestions implements ClientRequests {
  readonly #thread: QuestioningThread;

  constructor(thread: QuestioningThread) {
    this.#thread = thread;
  }

  /** Core showed the command as an item (awaiting approval) before asking; a declined one completes there too. */
  async requestCommandApproval(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandApprovalDecision> {
    this.#thread.setFlag('waitingOnApproval', true);
    const answer = await this.#askClearing('waitingOnApproval', () => this.#ask(
      'item/commandExecution/requestApproval',
      {
        kind: 'command',
        threadId: this.#thread.id(),
        turnId: request.turnId,
        itemId: request.callId,
        startedAtMs: this.#thread.host.now(),
        environmentId: request.environmentId,
        command: request.command,
        cwd: request.cwd,
        commandActions: [{ type: 'unknown', command: request.script }],
        ...(request.reason === undefined ? {} : { reason: request.reason }),
        ...(request.proposedExecpolicyAmendment === undefined ? {} : { proposedExecpolicyAmendment: request.proposedExecpolicyAmendment }),
        availableDecisions: request.availableDecisions,
      },
      CommandExecutionApprovalResponse,
      signal,
    ));
    const decision: CommandApprovalDecision = answer === undefined || 'applyNetworkPolicyAmendment' in (typeof answer.decision === 'object' ? answer.decision : {}) ? 'decline' : (answer.decision as CommandApprovalDecision);
    // Codex reports a declined command before the status change, so the flag clears when its item
    // completes; an accepted one still has to run.
    if (decision !== 'decline' && decision !== 'cancel') this.#thread.setFlag('waitingOnApproval', false);
    return decision;
  }

  /** Core showed the patch as an item (awaiting approval) before asking; the patch tool completes it. */
  async requestFileChangeApproval(request: FileChangeApprovalRequest, signal: AbortSignal): Promise<FileChangeApprovalDecision> {
    this.#thread.setFlag('waitingOnApproval', true);
    const answer = await this.#askClearing('waitingOnApproval', () => this.#ask(
      'item/fileChange/requestApproval',
      {
        threadId: this.#thread.id(),
        turnId: request.turnId,
        itemId: request.callId,
        startedAtMs: this.#thread.host.now(),
        reason: request.reason ?? null,
        grantRoot: request.grantRoot ?? null,
      },
      FileChangeApprovalResponse,
      signal,
    ));
    this.#thread.setFlag('waitingOnApproval', false);
    return answer?.decision ?? 'decline';
  }

  async requestUserInput(request: UserInputRequest, signal: AbortSignal): Promise<UserInputAnswers> {
    this.#thread.setFlag('waitingOnUserInput', true);
    try {
      const answer = await this.#ask(
        'item/tool/requestUserInput',
        { threadId: this.#thread.id(), turnId: request.turnId, itemId: request.callId, questions: request.questions, isBlocking: true, autoResolutionMs: null },
        ToolRequestUserInputResponse,
        signal,
      );
      return answer?.answers ?? {};
    } finally {
      this.#thread.setFlag('waitingOnUserInput', false);
    }
  }

  /** An MCP server's question (a tool call's approval, or the server's own form or URL); no answer is a decline. */
  async requestMcpElicitation(request: McpElicitationRequest, signal: AbortSignal): Promise<McpElicitationAnswer> {
    this.#thread.setFlag('waitingOnApproval', true);
    try {
      const shape = request.mode === 'url' ? { url: request.url, elicitationId: request.elicitationId } : { requestedSchema: request.requestedSchema };
      const answer = await this.#ask(
        'mcpServer/elicitation/request',
        { threadId: this.#thread.id(), turnId: request.turnId, serverName: request.serverName, environmentId: null, mode: request.mode, _meta: request.meta ?? null, message: request.message, ...shape },
        ElicitationResponse,
        signal,
      );
      return answer === undefined ? { action: 'decline' } : { action: answer.action, content: answer.content ?? undefined, meta: answer._meta ?? undefined };
    } finally {
      this.#thread.setFlag('waitingOnApproval', false);
    }
  }

  /**
   * Sends a server request to the thread's subscribers and waits for an answer, which must parse
   * with `schema`; undefined when no client can answer (none subscribed, an error answer).
   * `serverRequest/resolved` follows an answer.
   */
  async #ask<S extends z.ZodType>(method: string, params: object, schema: S, signal: AbortSignal): Promise<z.output<S> | undefined> {
    signal.throwIfAborted();
    const withdrawn = this.#thread.openRequests();
    let requestId: number | undefined;
    let result: unknown;
    try {
      result = await this.#thread.host.ask(this.#thread.id(), method, params, { onSent: (id) => (requestId = id), signal });
    } catch (error) {
      // An interrupt withdraws the question; clients hear it resolved when the turn has ended.
      if (signal.aborted) {
        if (requestId !== undefined) withdrawn?.push(requestId);
        throw signal.reason;
      }
      // An error answer settles it too: the other subscribers must stop showing it.
      if (requestId !== undefined && error instanceof ServerRequestError && error.code === 'ClientError') this.#thread.emit('serverRequest/resolved', { threadId: this.#thread.id(), requestId });
      return undefined;
    }
    if (requestId !== undefined) this.#thread.emit('serverRequest/resolved', { threadId: this.#thread.id(), requestId });
    const parsed = schema.safeParse(result);
    return parsed.success ? parsed.data : undefined;
  }


  /** Runs a question, clearing its status flag however it ends (an interrupt included). */
  async #askClearing<T>(flag: ActiveFlag, ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (error) {
      this.#thread.setFlag(flag, false);
      throw error;
    }
  }
}
