// The `<permissions instructions>` fragment: in our words, what the sandbox allows (mode, writable
// roots, network) and when the agent must ask for approval.
import { PERMISSIONS_INSTRUCTIONS_FRAGMENT } from '@skein/protocol';

/** The facts the fragment states. */
export interface PermissionsFacts {
  readonly sandboxMode: 'read-only' | 'workspace-write' | 'danger-full-access';
  readonly writableRoots: readonly string[];
  readonly networkAccess: boolean;
  /** `untrusted`, `on-failure`, `on-request`, `never`, or `granular`. */
  readonly approvalPolicy: string;
}

/** The tag the fragment starts with (its definition's open marker). */
export const PERMISSIONS_OPEN = PERMISSIONS_INSTRUCTIONS_FRAGMENT.open;

/** Renders the fragment. */
export function renderPermissionsInstructions(facts: PermissionsFacts): string {
  return PERMISSIONS_INSTRUCTIONS_FRAGMENT.render(`${sandboxSentence(facts)}\n${approvalSentence(facts.approvalPolicy)}`).text;
}

function sandboxSentence(facts: PermissionsFacts): string {
  const network = facts.networkAccess ? 'Network access is allowed.' : 'Network access is blocked.';
  switch (facts.sandboxMode) {
    case 'danger-full-access':
      return 'Sandbox: danger-full-access. Commands run without filesystem or network restrictions; take extra care with anything destructive.';
    case 'read-only':
      return `Sandbox: read-only. Commands may read any file but cannot write anywhere. ${network}`;
    case 'workspace-write': {
      const roots = facts.writableRoots.length === 0 ? 'the working directory' : facts.writableRoots.map((root) => `\`${root}\``).join(', ');
      return `Sandbox: workspace-write. Commands may read any file and write only under these roots: ${roots}. Inside them, .git, .agents, .codex and .aws stay read-only. ${network}`;
    }
  }
}

function approvalSentence(policy: string): string {
  switch (policy) {
    case 'never':
      return 'Approvals: never. You cannot ask the user for more access; work within the sandbox and report what it prevented.';
    case 'untrusted':
      return 'Approvals: untrusted. Commands that are not known to be safe are sent to the user for approval before they run.';
    case 'on-failure':
      return 'Approvals: on-failure. Commands run in the sandbox first; if the sandbox blocks one, the user is asked whether to run it without restrictions.';
    case 'on-request':
      return 'Approvals: on-request. Commands run in the sandbox; when one needs more access, request escalation on that call with a one-sentence justification and the user decides.';
    default:
      return `Approvals: ${policy}. Some kinds of requests go to the user for approval, others are decided by policy; request escalation only when the task needs it.`;
  }
}
