// Which approval policy a resumed or forked thread runs with when the client names none.
import type { ThreadResumeParams } from '@skein/protocol';
import type { LoadedThread } from '@skein/rollout';

/**
 * The approval policy a stored thread last ran with: a resumed or forked thread keeps it unless the
 * client names another, as Codex does (the sandbox, by contrast, falls back to the config's).
 */
export function recordedApprovalPolicy(loaded: LoadedThread, params: { readonly config?: Readonly<Record<string, unknown>> | null | undefined }): ThreadResumeParams['approvalPolicy'] {
  // A client's own `config` override of the key wins over the recording.
  if (params.config?.['approval_policy'] !== undefined && params.config['approval_policy'] !== null) return undefined;
  const recorded = loaded.lastTurnContext?.approval_policy;
  return recorded === null || recorded === undefined ? undefined : (recorded as ThreadResumeParams['approvalPolicy']);
}
