// A thread's approvals as tools see them: one CommandApprovals per thread (session approvals and the
// exec policy live there), bound to each call's turn, call id, environment and abort signal.
import path from 'node:path';
import type { Config } from '@skein/config';
import type { ToolApprovals } from '@skein/extension-api';
import { CommandApprovals, type CommandApprovalsOptions } from '../tools/approvals/command-approvals.js';
import { appendAllowPrefixRule, DEFAULT_RULES_FILE, ExecPolicy, loadExecPolicy } from '../tools/approvals/exec-policy/exec-policy.js';
import type { BindApprovals } from '../tools/turn-tool-calls.js';
import type { ClientRequests } from './client-requests.js';
import { isWritable, sandboxRestricts, type WriteScope } from './sandbox-context.js';

/** What a thread's approvals read. */
export interface ThreadApprovalsOptions {
  readonly client: ClientRequests | undefined;
  /** The thread's settings now (they may change between turns). */
  config(): Config;
  /** Where writes on the environment `environmentId` are checked; undefined once the thread no longer has it. */
  writeScope(environmentId: string): WriteScope | undefined;
  /** Ends the running turn, as the user's `cancel` asks. */
  cancelTurn(): void;
  warn(message: string): void;
  /** The thread's PermissionRequest hooks (see `CommandApprovalsOptions.permissionHook`). */
  permissionHook?: CommandApprovalsOptions['permissionHook'];
}

/** The thread's approvals, bindable to a call. */
export function threadApprovals(options: ThreadApprovalsOptions): BindApprovals {
  let execPolicy: Promise<ExecPolicy> | undefined;
  const approvals = new CommandApprovals({
    client: options.client,
    policy: () => options.config().approvalPolicy,
    sandboxRestricted: () => sandboxRestricts(options.config()),
    isWritable: (target, environmentId) => {
      const scope = options.writeScope(environmentId);
      return scope !== undefined && isWritable(options.config(), target, scope);
    },
    cancelTurn: () => options.cancelTurn(),
    permissionHook: options.permissionHook,
    execPolicy: () => (execPolicy ??= loadThreadExecPolicy(options.config(), (message) => options.warn(message))),
    persistAllowedPrefix: async (prefix) => {
      const file = path.join(options.config().homeDir, 'rules', DEFAULT_RULES_FILE);
      // The approval holds for this session either way; only later sessions would miss it.
      await appendAllowPrefixRule(file, prefix).catch((error: unknown) => options.warn(`could not save the approved command prefix to ${file}: ${(error as Error).message}`));
    },
  });
  return ({ turnId, callId, environmentId, signal }): ToolApprovals => ({
    command: (call) => approvals.authorizeCommand({ ...call, turnId, callId, environmentId }, signal),
    retryWithoutSandbox: (call, alreadyApproved) => approvals.authorizeRetryWithoutSandbox({ ...call, turnId, callId, environmentId }, alreadyApproved, signal),
    patch: (changes, patch) => approvals.authorizePatch({ turnId, callId, environmentId, changes, patch }, signal),
  });
}

/**
 * The rules beside each config layer: `$CODEX_HOME/rules`, then each trusted project's
 * `.codex/rules`. Unreadable ones are reported and left out, as Codex's app-server does.
 */
async function loadThreadExecPolicy(config: Config, warn: (message: string) => void): Promise<ExecPolicy> {
  const projectDirs = config.layers.flatMap((layer) => (layer.name.type === 'project' ? [path.join(path.dirname(layer.name.file), 'rules')] : []));
  const rulesDirs = [path.join(config.homeDir, 'rules'), ...projectDirs];
  try {
    return await loadExecPolicy(rulesDirs);
  } catch (error) {
    warn(`exec-policy rules are ignored for this thread: ${(error as Error).message}`);
    return new ExecPolicy();
  }
}
