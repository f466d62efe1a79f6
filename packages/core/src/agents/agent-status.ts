// Where a sub-agent stands, as one value per agent, and how `list_agents` spells it (Codex's wire
// form: a bare word, or `{completed: <answer>}` / `{errored: <reason>}`).

/** The life of an agent: spawned, working, stopped by an interrupt, done, failed, or closed. */
export type AgentStatus =
  | { readonly kind: 'pendingInit' }
  | { readonly kind: 'running' }
  | { readonly kind: 'interrupted' }
  | { readonly kind: 'completed'; readonly answer: string | null }
  | { readonly kind: 'errored'; readonly reason: string }
  | { readonly kind: 'shutdown' };

/** The status as the model reads it in tool outputs. */
export type AgentStatusWire = string | { readonly completed: string | null } | { readonly errored: string };

export function statusWire(status: AgentStatus): AgentStatusWire {
  switch (status.kind) {
    case 'pendingInit':
      return 'pending_init';
    case 'running':
      return 'running';
    case 'interrupted':
      return 'interrupted';
    case 'completed':
      return { completed: status.answer };
    case 'errored':
      return { errored: status.reason };
    case 'shutdown':
      return 'shutdown';
  }
}

/** Whether the agent is working (or about to): it counts against the concurrency limit. */
export function isActive(status: AgentStatus): boolean {
  return status.kind === 'pendingInit' || status.kind === 'running';
}
