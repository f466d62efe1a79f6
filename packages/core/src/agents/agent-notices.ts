// What an agent tree tells and gives its agents, beside the tree itself: a turn's end as a status,
// the notice a parent reads when a sub-agent ends (v2 when it did not finish, v1 always), and a v1
// task as a plain user message.
import { SUBAGENT_NOTIFICATION_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { TurnOutcome } from '../turn/run-turn.js';
import { statusWire, type AgentStatus } from './agent-status.js';

/** The parts of an agent a notice names. */
interface NoticeSubject {
  readonly path: string;
  readonly threadId: string;
  readonly status: AgentStatus;
}

/** A turn's outcome as the agent's status: a failure (the model's, the executor's, a spent budget) is `errored`, never `completed`. */
export function endingOf(outcome: TurnOutcome): AgentStatus {
  if (outcome.status === 'completed') return { kind: 'completed', answer: outcome.lastAgentMessage ?? null };
  if (outcome.status === 'interrupted' && outcome.error === undefined) return { kind: 'interrupted' };
  return { kind: 'errored', reason: outcome.error?.message ?? 'the turn stopped' };
}

/** A reason short enough for the parent's context (about 1,000 tokens). */
const MAX_REASON_CHARS = 4_000;

export function boundedReason(reason: string): string {
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS)}… (cut)`;
}

export function describe(status: AgentStatus): string {
  const wire = statusWire(status);
  return typeof wire === 'string' ? wire : Object.keys(wire)[0] ?? 'unknown';
}

/** What a parent reads when a sub-agent did not finish: its status and what to do about it. */
export function notification(node: NoticeSubject): ResponseItem {
  const nextAction =
    node.status.kind === 'errored'
      ? 'Read the reason; give the agent a corrected task with followup_task, or do the work yourself.'
      : 'The agent stopped before it finished; give it more work with followup_task if the task still matters.';
  const body = JSON.stringify({ agent_path: node.path, status: statusWire(node.status), next_action: nextAction });
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: SUBAGENT_NOTIFICATION_FRAGMENT.render(body).text }] };
}

/** What a v1 agent's parent reads when it ends: its id and status (Codex's v1 notification). */
export function v1Notification(node: NoticeSubject): ResponseItem {
  const body = JSON.stringify({ agent_path: node.threadId, status: statusWire(node.status) });
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: SUBAGENT_NOTIFICATION_FRAGMENT.render(body).text }] };
}

/** A v1 task or input: a plain user message. */
export function userMessage(text: string): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}
