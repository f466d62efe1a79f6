// One thread's approvals: decides with the policy whether a command or patch may go ahead, asks the
// client when it must, remembers "approve for session" answers (keyed by command, working directory
// and environment, so the same command elsewhere asks again) and applies the exec policy's rules,
// to which "always allow this prefix" answers are added.
import type { Authorization, CommandApprovalCall } from '@skein/extension-api';
import type {
  ClientRequests,
  CommandApprovalDecision,
  FileChangeApprovalDecision,
} from '../../session/client-requests.js';
import { allowsEscalationRequests, asksAfterSandboxDenial, commandRequirement, refusalReason, ruleRefusalReason, type ApprovalPolicy } from './command-requirement.js';
import { scriptHasDangerousCommand } from './dangerous-command.js';
import type { ExecPolicy, ExecPolicyVerdict } from './exec-policy/exec-policy.js';
import { commandsOf } from './shell-words.js';

/** A command the model wants to run: what a tool asks about, and the call it belongs to. */
export interface CommandCall extends CommandApprovalCall {
  readonly turnId: string;
  readonly callId: string;
  /** The environment the command runs on (`local`, or a remote executor's id). */
  readonly environmentId: string;
}

/** A patch the model wants to apply. */
export interface PatchCall {
  readonly turnId: string;
  readonly callId: string;
  /** The environment whose files the patch changes. */
  readonly environmentId: string;
  readonly changes: readonly { readonly path: string; readonly kind: 'add' | 'update' | 'delete'; readonly movePath?: string | undefined; readonly diff?: string }[];
  /** The patch as the model wrote it, for PermissionRequest hooks. */
  readonly patch?: string | undefined;
}

export type { Authorization };

/** Options of {@link CommandApprovals}. */
export interface CommandApprovalsOptions {
  /** Asks the user; absent when no one can be asked (then every question is declined). */
  readonly client: ClientRequests | undefined;
  /** The policy now (it may change between turns). */
  policy(): ApprovalPolicy;
  /** Whether the sandbox restricts the filesystem now (false under danger-full-access). */
  sandboxRestricted(): boolean;
  /** Whether the sandbox lets the thread write `path` (an absolute native path). */
  isWritable(path: string, environmentId: string): boolean;
  /** Ends the running turn, as the user's `cancel` asks. */
  cancelTurn(): void;
  /** The exec policy (loaded once, on first use). */
  execPolicy(): Promise<ExecPolicy>;
  /** Records a prefix the user allowed for good (Codex appends it to `rules/default.rules`). */
  persistAllowedPrefix(prefix: readonly string[]): Promise<void>;
  /** The thread's PermissionRequest hooks, asked before the user: an answer stands for the user's. */
  permissionHook?: ((request: PermissionHookRequest, signal: AbortSignal) => Promise<PermissionHookAnswer | undefined>) | undefined;
}

/** What PermissionRequest hooks are asked about: the tool as hooks name it and its input (Codex's fields, probed). */
export interface PermissionHookRequest {
  readonly turnId: string;
  readonly callId: string;
  /** `Bash` or `apply_patch`. */
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
}

/** What PermissionRequest hooks decided for a command or patch. */
export type PermissionHookAnswer = { readonly behavior: 'allow' } | { readonly behavior: 'deny'; readonly message: string };

/** What the model reads when the user turns a command down (Codex's wording of the error). */
export const COMMAND_REJECTED_OUTPUT = 'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }';
const PATCH_REJECTED_OUTPUT = 'patch rejected by user';
const NO_CLIENT = 'approval is required, but no client is connected to ask';

/** The approvals of one thread. */
export class CommandApprovals {
  readonly #options: CommandApprovalsOptions;
  readonly #approvedForSession = new Set<string>();
  readonly #approvedPatchPaths = new Set<string>();

  constructor(options: CommandApprovalsOptions) {
    this.#options = options;
  }

  /** Decides (asking if the policy says so) whether and how a command runs. */
  async authorizeCommand(call: CommandCall, signal: AbortSignal): Promise<Authorization> {
    const policy = this.#options.policy();
    if (call.escalate && !allowsEscalationRequests(policy)) {
      return rejected(
        `exec_command failed: the approval policy is ${policyName(policy)}, under which a command cannot ask to run outside the sandbox; run it without sandbox_permissions`,
      );
    }
    const { commands, complex } = commandsOf(call.argv);
    const execPolicy = await this.#options.execPolicy();
    // A script the approval cannot see through is judged whole, as its argv.
    const judged = complex ? [call.argv] : commands;
    const verdicts = judged.map((words) => execPolicy.check(words));
    const forbidden = verdicts.find((verdict) => verdict?.decision === 'forbidden');
    if (forbidden !== undefined) return rejected(`exec_command failed: ${ruleReason('forbidden by', forbidden)}`);
    const prompt = verdicts.find((verdict) => verdict?.decision === 'prompt');
    // Only when rules allow every part does the command leave the sandbox unasked.
    if (prompt === undefined && verdicts.every((verdict) => verdict?.decision === 'allow')) return { type: 'run', sandboxed: false };
    if (this.#approvedForSession.has(this.#sessionKey(call))) return { type: 'run', sandboxed: !call.escalate, approved: true };
    if (prompt !== undefined) {
      const refusal = ruleRefusalReason(policy);
      if (refusal !== undefined) return rejected(`exec_command failed: ${refusal} (${ruleReason('asked for by', prompt)})`);
      return this.#askCommand(call, call.justification ?? prompt.rule.justification, undefined, !call.escalate, signal);
    }
    // The parts no rule matched are judged by the approval policy, as Codex's heuristics do.
    const unmatched = complex ? commands : judged.filter((_, index) => verdicts[index] === undefined);
    const requirement = commandRequirement(policy, {
      commands: unmatched,
      complex,
      argv: call.argv,
      dangerous: scriptHasDangerousCommand(call.script),
      escalate: call.escalate,
      prefixRule: call.prefixRule,
      sandboxRestricted: this.#options.sandboxRestricted(),
    });
    switch (requirement.type) {
      case 'run':
        return requirement;
      case 'refuse':
        return rejected(`exec_command failed: ${requirement.reason}`);
      case 'ask':
        return this.#askCommand(call, call.justification ?? undefined, requirement.proposedAmendment, !call.escalate, signal);
    }
  }

  /**
   * After the sandbox denied a command: whether to run it again outside, asking if the policy allows
   * (not again when the user already approved this call).
   */
  async authorizeRetryWithoutSandbox(call: CommandCall, alreadyApproved: boolean, signal: AbortSignal): Promise<Authorization | undefined> {
    if (!asksAfterSandboxDenial(this.#options.policy())) return undefined;
    if (alreadyApproved || this.#approvedForSession.has(this.#sessionKey(call))) return { type: 'run', sandboxed: false, approved: true };
    const { commands, complex } = commandsOf(call.argv);
    return this.#askCommand(call, 'the sandbox blocked this command; run it again without the sandbox?', complex ? call.argv : commands[0], false, signal);
  }

  /** Decides whether a planned patch is applied, asking when it writes outside the writable roots or the policy trusts nothing. */
  async authorizePatch(call: PatchCall, signal: AbortSignal): Promise<Authorization> {
    const policy = this.#options.policy();
    const paths = call.changes.flatMap((change) => (change.movePath === undefined ? [change.path] : [change.path, change.movePath]));
    // Approved paths are remembered per environment: the same path on another machine asks again.
    const keys = paths.map((path) => JSON.stringify([call.environmentId, path]));
    if (keys.every((key) => this.#approvedPatchPaths.has(key))) return { type: 'run', sandboxed: false };
    const outside = paths.filter((path) => !this.#options.isWritable(path, call.environmentId));
    if (policy !== 'untrusted' && outside.length === 0) return { type: 'run', sandboxed: true };
    // Legacy on-failure lets the sandbox have its say; the write fails there and the model is told.
    if (policy === 'on-failure') return { type: 'run', sandboxed: true };
    const refusal = refusalReason(policy);
    if (refusal !== undefined) return rejected(`writing outside the writable roots was refused: ${refusal}`);
    // A hook's answer stands for the user's; the model reads a refusal's message as it is (probed).
    if (call.patch !== undefined) {
      const hooked = await this.#options.permissionHook?.({ turnId: call.turnId, callId: call.callId, toolName: 'apply_patch', toolInput: { command: call.patch.trimEnd() } }, signal);
      if (hooked?.behavior === 'deny') return rejected(hooked.message);
      if (hooked?.behavior === 'allow') return this.#patchDecision('accept', keys);
    }
    const client = this.#options.client;
    if (client === undefined) return rejected(NO_CLIENT);
    const firstOutside = outside[0];
    const decision = await client.requestFileChangeApproval(
      {
        turnId: call.turnId,
        callId: call.callId,
        changes: call.changes,
        reason: outside.length > 0 ? 'the patch writes outside the writable roots' : undefined,
        grantRoot: firstOutside === undefined ? undefined : parentDirectory(firstOutside),
      },
      signal,
    );
    return this.#patchDecision(decision, keys);
  }

  async #askCommand(
    call: CommandCall,
    reason: string | undefined,
    amendment: readonly string[] | undefined,
    sandboxed: boolean,
    signal: AbortSignal,
  ): Promise<Authorization> {
    // A hook's answer stands for the user's (Codex's wording of a refusal, probed).
    const toolInput = { command: call.script, ...(call.justification === undefined ? {} : { description: call.justification }) };
    const hooked = await this.#options.permissionHook?.({ turnId: call.turnId, callId: call.callId, toolName: 'Bash', toolInput }, signal);
    if (hooked?.behavior === 'deny') return rejected(`exec_command failed: CreateProcess { message: ${JSON.stringify(`Rejected(${JSON.stringify(hooked.message)})`)} }`);
    if (hooked?.behavior === 'allow') return { type: 'run', sandboxed, approved: true };
    const client = this.#options.client;
    if (client === undefined) return rejected(`exec_command failed: ${NO_CLIENT}`);
    const decision = await client.requestCommandApproval(
      {
        turnId: call.turnId,
        callId: call.callId,
        command: call.command,
        script: call.script,
        cwd: call.cwd,
        environmentId: call.environmentId,
        reason,
        proposedExecpolicyAmendment: amendment,
        // Codex offers these; `acceptForSession` and `decline` are accepted as answers too.
        availableDecisions: amendment === undefined ? ['accept', 'cancel'] : ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: amendment } }, 'cancel'],
      },
      signal,
    );
    return this.#commandDecision(decision, call, sandboxed);
  }

  async #commandDecision(decision: CommandApprovalDecision, call: CommandCall, sandboxed: boolean): Promise<Authorization> {
    if (typeof decision === 'object') {
      const prefix = decision.acceptWithExecpolicyAmendment.execpolicy_amendment;
      if (prefix.length > 0) {
        (await this.#options.execPolicy()).allowPrefix(prefix, 'approved in this session');
        await this.#options.persistAllowedPrefix(prefix);
      }
      return { type: 'run', sandboxed, approved: true };
    }
    switch (decision) {
      case 'accept':
        return { type: 'run', sandboxed, approved: true };
      case 'acceptForSession':
        this.#approvedForSession.add(this.#sessionKey(call));
        return { type: 'run', sandboxed, approved: true };
      case 'decline':
        return rejected(COMMAND_REJECTED_OUTPUT);
      case 'cancel':
        this.#options.cancelTurn();
        return rejected(COMMAND_REJECTED_OUTPUT);
    }
  }

  #patchDecision(decision: FileChangeApprovalDecision, keys: readonly string[]): Authorization {
    switch (decision) {
      case 'accept':
        return { type: 'run', sandboxed: false };
      case 'acceptForSession':
        for (const key of keys) this.#approvedPatchPaths.add(key);
        return { type: 'run', sandboxed: false };
      case 'decline':
        return rejected(PATCH_REJECTED_OUTPUT);
      case 'cancel':
        this.#options.cancelTurn();
        return rejected(PATCH_REJECTED_OUTPUT);
    }
  }

  #sessionKey(call: CommandCall): string {
    // Escalated and confined runs of a command are different approvals, as are terminal and plain ones.
    return JSON.stringify([call.environmentId, call.cwd, call.argv, call.escalate, call.tty]);
  }
}

function rejected(output: string): Authorization {
  return { type: 'rejected', output };
}

function ruleReason(what: string, verdict: ExecPolicyVerdict): string {
  const why = verdict.rule.justification === undefined ? '' : ` (${verdict.rule.justification})`;
  return `${what} the exec-policy rule at ${verdict.rule.origin}${why}`;
}

function policyName(policy: ApprovalPolicy): string {
  return typeof policy === 'string' ? policy : 'granular';
}

function parentDirectory(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
