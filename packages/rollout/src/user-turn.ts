// Which history items open a user turn: a message the user typed (or an inter-agent message),
// as opposed to the context messages Skein and Codex send in the user role.
import { BUILT_IN_CONTEXT_FRAGMENTS, recognizeContextFragment, type ContextFragmentDefinition, type ResponseItem } from '@skein/protocol';

/**
 * Whether `item` opens a user turn (what a rollback counts). Codex 0.171.0 labels each content part
 * (`internal_chat_message_metadata_passthrough.content_item_kinds`: `user.text`,
 * `environments.environment_context`, `compaction.summary`, …); a message with a `user.*` part is
 * the user's. Unlabelled messages (Skein's, older files) are the user's unless every text part is a
 * fragment of one of `fragments`: the built-ins, plus the installed extensions' when the caller
 * knows them. Inter-agent `agent_message` items open a turn too.
 */
export function isUserTurnBoundary(item: ResponseItem, fragments: readonly ContextFragmentDefinition[] = BUILT_IN_CONTEXT_FRAGMENTS): boolean {
  if (item.type === 'agent_message') return true;
  if (item.type !== 'message' || (item as { role?: unknown }).role !== 'user') return false;
  const kinds = contentItemKinds(item);
  if (kinds !== undefined) return kinds.some((kind) => kind.startsWith('user.'));
  const texts = textParts(item);
  if (texts.length === 0) return true;
  return !texts.every((text) => recognizeContextFragment(text, 'user', fragments) !== undefined);
}

/** The text of a message item's input/output text parts, joined; undefined when it has none. */
export function userMessageText(item: ResponseItem): string | undefined {
  const texts = textParts(item);
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** The texts that frame a local image in a user message (`<image name=[Image #1] path="…">`, `</image>`): the harness's, not the user's. */
const IMAGE_FRAME = /^(<image name=\[Image #\d+\][^\n]*>|<\/image>)$/;

function textParts(item: ResponseItem): string[] {
  const content = (item as { content?: unknown }).content;
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const part of content) {
    const text = (part as { text?: unknown } | null)?.text;
    if (typeof text === 'string' && !IMAGE_FRAME.test(text)) texts.push(text);
  }
  return texts;
}

function contentItemKinds(item: ResponseItem): readonly string[] | undefined {
  const passthrough = (item as { internal_chat_message_metadata_passthrough?: unknown }).internal_chat_message_metadata_passthrough;
  const kinds = (passthrough as { content_item_kinds?: unknown } | null | undefined)?.content_item_kinds;
  if (!Array.isArray(kinds) || kinds.length === 0) return undefined;
  return kinds.filter((kind): kind is string => typeof kind === 'string');
}

/** The option every reader that tells user turns from context takes. */
export interface ContextFragmentOptions {
  /**
   * The fragments recognised as context rather than user turns: default the built-ins; a host with
   * extensions passes its registry's `contextFragments`, else their user-role fragments count as user turns.
   */
  readonly contextFragments?: readonly ContextFragmentDefinition[];
}
