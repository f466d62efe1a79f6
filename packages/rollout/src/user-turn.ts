// Which history items open a user turn: a message the user typed (or an inter-agent message),
// as opposed to the context messages Skein and Codex send in the user role.
import type { ResponseItem } from '@skein/protocol';

/**
 * Tags that open context messages sent in the user role (environment, AGENTS.md, skills, shell
 * commands the user ran, aborted-turn notes, sub-agent notices): they are not user turns.
 */
export const CONTEXTUAL_USER_MESSAGE_PREFIXES: readonly string[] = [
  '<environment_context>',
  '<user_instructions>',
  '# agents.md instructions',
  '<skill>',
  '<user_shell_command>',
  '<turn_aborted>',
  '<subagent_notification>',
];

/**
 * Whether `item` opens a user turn (what a rollback counts). Codex 0.171.0 labels each content part
 * (`internal_chat_message_metadata_passthrough.content_item_kinds`: `user.text`,
 * `environments.environment_context`, `compaction.summary`, …); a message with a `user.*` part is
 * the user's. Unlabelled messages (older files) are the user's unless they open with a context tag.
 * Inter-agent `agent_message` items open a turn too.
 */
export function isUserTurnBoundary(item: ResponseItem): boolean {
  if (item.type === 'agent_message') return true;
  if (item.type !== 'message' || (item as { role?: unknown }).role !== 'user') return false;
  const kinds = contentItemKinds(item);
  if (kinds !== undefined) return kinds.some((kind) => kind.startsWith('user.'));
  const text = userMessageText(item);
  if (text === undefined) return true;
  const opening = text.trimStart().toLowerCase();
  return !CONTEXTUAL_USER_MESSAGE_PREFIXES.some((prefix) => opening.startsWith(prefix));
}

/** The text of a message item's input/output text parts, joined; undefined when it has none. */
export function userMessageText(item: ResponseItem): string | undefined {
  const content = (item as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    const text = (part as { text?: unknown } | null)?.text;
    if (typeof text === 'string') texts.push(text);
  }
  return texts.length === 0 ? undefined : texts.join('\n');
}

function contentItemKinds(item: ResponseItem): readonly string[] | undefined {
  const passthrough = (item as { internal_chat_message_metadata_passthrough?: unknown }).internal_chat_message_metadata_passthrough;
  const kinds = (passthrough as { content_item_kinds?: unknown } | null | undefined)?.content_item_kinds;
  if (!Array.isArray(kinds) || kinds.length === 0) return undefined;
  return kinds.filter((kind): kind is string => typeof kind === 'string');
}
