// What an agent of a tree is told about its place, in two developer messages after the thread's
// policy message (Codex's order): its role — the root that may delegate, or a sub-agent with one
// task — and the delegation mode. The words are Skein's; the tags and placement are Codex's.
import { MULTI_AGENT_MODE_FRAGMENT, MULTI_AGENT_ROLE_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { AgentPlace } from '../session/turn-requests.js';

/**
 * When the agent should delegate: only when asked (the default, and the only mode Codex 0.171.0
 * runs), on its own judgement, or as the client's own words say.
 */
export type MultiAgentMode = 'explicitRequestOnly' | 'proactive' | { readonly custom: string };

/** Whether two modes are the same (a custom mode by its words). */
export function sameMultiAgentMode(a: MultiAgentMode | undefined, b: MultiAgentMode | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the role text is made from. */
export interface AgentRoleFacts {
  readonly place: AgentPlace;
  /** Sub-agents that may work at once in the session. */
  readonly maxConcurrent: number;
  /** Whether this agent has the collaboration tools (a gpt-5.5 sub-agent does not). */
  readonly canDelegate: boolean;
  /** Models trained on v2 read the role inside `<multi_agent_role>`; gpt-5.5 reads it bare. */
  readonly tagged: boolean;
}

function roleText(facts: AgentRoleFacts): string {
  const { place, maxConcurrent, canDelegate } = facts;
  if (place.parent === undefined) {
    return [
      `You are the root agent of this session, at path ${place.path}. You work with the user directly.`,
      `You can start sub-agents with the collaboration tools: each is a thread of its own that works on one task you give it and reports back its final answer. At most ${maxConcurrent} sub-agents work at once.`,
      'A sub-agent sees only the task you write, so make each task a complete brief. Its final answer reaches you as a message; wait_agent waits for it. Check the work a sub-agent reports before you rely on it.',
    ].join('\n');
  }
  return [
    `You are a sub-agent at path ${place.path}, started by ${place.parent.path} to work on one task. Your task arrives as a message from it.`,
    'Work on that task alone, in the same workspace, with the same permissions. There is no user to ask: when you are done, your last message is your final answer and is delivered to the agent that started you, so make it complete and self-contained.',
    canDelegate ? `You may start sub-agents of your own with the collaboration tools, at most ${maxConcurrent} working at once in the whole session.` : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

function modeText(mode: MultiAgentMode): string {
  if (mode === 'explicitRequestOnly') {
    return 'Delegation mode: explicit requests only. Start sub-agents only when the user asks for them (or for parallel or delegated work); otherwise do the work yourself.';
  }
  if (mode === 'proactive') {
    return 'Delegation mode: proactive. Start sub-agents on your own judgement when parts of the work are independent and a sub-agent would finish them sooner or keep your context clear; do small or tightly coupled work yourself.';
  }
  return `Delegation mode: as the user set it. ${mode.custom}`;
}

/** The message that tells the agent its role (bare, or in `<multi_agent_role>` for models trained on v2). */
export function agentRoleMessage(facts: AgentRoleFacts): ResponseItem {
  const role = roleText(facts);
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text: facts.tagged ? MULTI_AGENT_ROLE_FRAGMENT.render(role).text : role }] };
}

/** The `<multi_agent_mode>` message, sent with the initial context and again when the mode changes. */
export function agentModeMessage(mode: MultiAgentMode): ResponseItem {
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text: MULTI_AGENT_MODE_FRAGMENT.render(modeText(mode)).text }] };
}
