// What the approval policy requires before a command runs: run it (in the sandbox or not), ask the
// user, or refuse. Codex 0.171.0's rules for commands no exec-policy rule matched:
// - `untrusted` runs known-safe read-only commands and asks for everything else;
// - `on-request` and granular run commands in the sandbox and ask only when the model requests
//   escalation (granular may turn that question into a refusal);
// - `never` and the legacy `on-failure` run everything in the sandbox;
// - a dangerous command (a forced `rm`) is asked about by every policy that can ask.
import type { ApprovalPolicyToml } from '@skein/config';
import { isDangerousCommand } from './dangerous-command.js';
import { isKnownSafeCommand } from './known-safe-command.js';

/** The thread's approval policy, as config and clients spell it. */
export type ApprovalPolicy = ApprovalPolicyToml;

/** The verdict for one command. */
export type CommandRequirement =
  | { readonly type: 'run'; readonly sandboxed: boolean }
  | { readonly type: 'ask'; readonly proposedAmendment: readonly string[] | undefined }
  | { readonly type: 'refuse'; readonly reason: string };

/** What the verdict depends on. */
export interface CommandFacts {
  /** The plain commands the call runs (a shell script split at `&&`, `||`, `;`, `|`). */
  readonly commands: readonly (readonly string[])[];
  /** The script could not be read as plain commands; nothing in it counts as known safe. */
  readonly complex: boolean;
  /** The whole argv, proposed as the amendment when the script is not plain. */
  readonly argv: readonly string[];
  /** A forced `rm` somewhere in the script, simple or not. */
  readonly dangerous: boolean;
  /** The model asked to run outside the sandbox (`sandbox_permissions: require_escalated`). */
  readonly escalate: boolean;
  /** The model's `prefix_rule` suggestion. */
  readonly prefixRule: readonly string[] | undefined;
  /** Whether the sandbox restricts the filesystem at all (false under danger-full-access). */
  readonly sandboxRestricted: boolean;
}

// Prefixes too broad to offer as "always allow": they would allow any program.
const BANNED_PREFIXES = [
  'python3', 'python3 -', 'python3 -c', 'python', 'python -', 'python -c', 'py', 'py -3', 'pythonw', 'pyw', 'pypy', 'pypy3',
  'git', 'bash', 'bash -lc', 'sh', 'sh -c', 'sh -lc', 'zsh', 'zsh -lc', '/bin/zsh', '/bin/zsh -lc', '/bin/bash', '/bin/bash -lc',
  'pwsh', 'pwsh -Command', 'pwsh -c', 'powershell', 'powershell -Command', 'powershell -c', 'powershell.exe',
  'powershell.exe -Command', 'powershell.exe -c', 'env', 'sudo', 'node', 'node -e', 'perl', 'perl -e', 'ruby', 'ruby -e',
  'php', 'php -r', 'lua', 'lua -e', 'osascript',
];

const NEVER_ASK = 'approval required by policy, but the approval policy is never';
const GRANULAR_NO_SANDBOX_APPROVAL = 'approval required by policy, but the granular approval policy turns off sandbox approvals';
const GRANULAR_NO_RULE_APPROVAL = 'approval required by policy rule, but the granular approval policy turns off rule approvals';

/** Decides what `policy` requires for a command with these facts. */
export function commandRequirement(policy: ApprovalPolicy, facts: CommandFacts): CommandRequirement {
  const verdicts = facts.commands.map((words) => ({ words, verdict: unmatchedCommandVerdict(policy, words, facts) }));
  const asking = verdicts.find((entry) => entry.verdict === 'ask');
  if (asking === undefined) return { type: 'run', sandboxed: !facts.escalate };
  const refusal = refusalReason(policy);
  if (refusal !== undefined) return { type: 'refuse', reason: refusal };
  return { type: 'ask', proposedAmendment: proposedAmendment(facts, asking.words) };
}

/** Whether the policy lets the user approve rerunning a sandbox-denied command outside the sandbox. */
export function asksAfterSandboxDenial(policy: ApprovalPolicy): boolean {
  if (typeof policy === 'object') return policy.granular.sandbox_approval;
  return policy === 'untrusted' || policy === 'on-failure';
}

/** Whether the model may request escalation under this policy (Codex refuses it elsewhere). */
export function allowsEscalationRequests(policy: ApprovalPolicy): boolean {
  return policy === 'on-request' || typeof policy === 'object';
}

/** Why a question the policy forbids is refused, if it is. */
export function refusalReason(policy: ApprovalPolicy): string | undefined {
  if (policy === 'never') return NEVER_ASK;
  if (typeof policy === 'object' && !policy.granular.sandbox_approval) return GRANULAR_NO_SANDBOX_APPROVAL;
  return undefined;
}

/** Why a question an exec-policy rule asks for cannot be asked under `policy` (granular's `rules` decides), or undefined. */
export function ruleRefusalReason(policy: ApprovalPolicy): string | undefined {
  if (policy === 'never') return NEVER_ASK;
  if (typeof policy === 'object' && !policy.granular.rules) return GRANULAR_NO_RULE_APPROVAL;
  return undefined;
}

function unmatchedCommandVerdict(policy: ApprovalPolicy, words: readonly string[], facts: CommandFacts): 'run' | 'ask' {
  if (policy === 'untrusted' && !facts.complex && !facts.escalate && isKnownSafeCommand(words)) return 'run';
  if (facts.dangerous || isDangerousCommand(words)) return policy === 'on-failure' ? 'run' : 'ask';
  switch (policy) {
    case 'never':
    case 'on-failure':
      return 'run';
    case 'untrusted':
      return 'ask';
    case 'on-request':
    default:
      // In an unrestricted sandbox there is nothing to escalate from.
      return facts.sandboxRestricted && facts.escalate ? 'ask' : 'run';
  }
}

function proposedAmendment(facts: CommandFacts, asking: readonly string[]): readonly string[] | undefined {
  const suggested = facts.prefixRule;
  if (suggested !== undefined && suggested.length > 0) return BANNED_PREFIXES.includes(suggested.join(' ')) ? undefined : suggested;
  // A script that is not a plain chain is proposed whole, as Codex does.
  return facts.complex ? facts.argv : asking;
}
