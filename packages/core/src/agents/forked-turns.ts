// `fork_turns: "all"`: a sub-agent starts with a copy of its parent's conversation — the turns the
// parent finished, as its model saw them — but not the parent's context (its instructions, role,
// environment), which the sub-agent gets as its own, nor the turn that is spawning it (its spawn
// call has no output yet).
import { BUILT_IN_CONTEXT_FRAGMENTS, isKnownResponseItem, messageText, recognizeContextFragment, type ResponseItem } from '@skein/protocol';

/** The items of `history` a forked sub-agent starts with. */
export function forkedTurns(history: readonly ResponseItem[], spawningTurnId: string | undefined): ResponseItem[] {
  return history.filter((item) => {
    if ((item.metadata as { turn_id?: unknown } | undefined)?.turn_id === spawningTurnId && spawningTurnId !== undefined) return false;
    if (!isKnownResponseItem(item)) return item.type === 'agent_message';
    if (item.type !== 'message') return item.type !== 'additional_tools' && item.type !== 'compaction';
    if (item.role === 'assistant') return true;
    if (item.role !== 'user') return false;
    // The parent's own context messages (environment, AGENTS.md, notifications) are not conversation.
    return recognizeContextFragment(messageText(item), 'user', BUILT_IN_CONTEXT_FRAGMENTS) === undefined;
  });
}
