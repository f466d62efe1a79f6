// The history a compaction leaves: the initial context as the model would be told it now, the
// user's earlier prompts (newest kept, within a bound), then the summary. The model's own messages,
// reasoning and tool traffic are dropped; the summary stands in for them. Every item gets an id
// here, so the live history and the `compacted` rollout line hold the same items.
import { isUserTurnBoundary } from '@skein/rollout';
import { ensureResponseItemId, withResponseItemMetadata, type ContextFragmentDefinition, type ResponseItem, type UuidV7Source } from '@skein/protocol';
import { approximateTokens, truncateMiddle } from '../history/truncate-output.js';
import { handoffSummaryMessage, isHandoffSummary } from './handoff-summary.js';

/**
 * How many tokens of earlier user prompts a compaction keeps (estimated at four bytes a token):
 * enough for the user's own words across a long session, small next to any model's window.
 */
export const KEPT_USER_PROMPTS_MAX_TOKENS = 20_000;

/** What the replacement is built from. */
export interface ReplacementHistoryInput {
  /** The initial context rendered for the thread's current settings (with extensions' thread fragments and world state). */
  readonly context: readonly ResponseItem[];
  /**
   * Where the context goes: first (before a turn, or on request), or just before the newest prompt
   * (between two samplings of a turn, so the turn's own prompt stays last before the summary).
   */
  readonly contextPlacement?: 'start' | 'beforeLastPrompt';
  /** The history being replaced. */
  readonly history: readonly ResponseItem[];
  /** The model's handoff summary. */
  readonly summary: string;
  /** Tells context messages from the user's prompts. */
  readonly contextFragments: readonly ContextFragmentDefinition[];
  /** The turn the compaction ran in (tags new items). */
  readonly turnId: string;
  readonly uuid: UuidV7Source;
  readonly maxUserPromptTokens?: number;
}

/** Builds the replacement history; every item has an id. */
export function buildReplacementHistory(input: ReplacementHistoryInput): ResponseItem[] {
  const prompts = keptUserPrompts(
    input.history.filter((item) => item.type === 'message' && isUserTurnBoundary(item, input.contextFragments) && !isHandoffSummary(item)),
    input.maxUserPromptTokens ?? KEPT_USER_PROMPTS_MAX_TOKENS,
  );
  const fresh = (item: ResponseItem) => withResponseItemMetadata(ensureResponseItemId(item, input.uuid), { turn_id: input.turnId });
  const kept = prompts.map((item) => ensureResponseItemId(item, input.uuid));
  const context = input.context.map(fresh);
  const summary = fresh(handoffSummaryMessage(input.summary));
  if (input.contextPlacement === 'beforeLastPrompt' && kept.length > 0) return [...kept.slice(0, -1), ...context, kept.at(-1)!, summary];
  return [...context, ...kept, summary];
}

/** The newest prompts that fit `maxTokens`, in their order; the oldest one kept is cut in the middle if it does not fit whole. */
function keptUserPrompts(prompts: readonly ResponseItem[], maxTokens: number): ResponseItem[] {
  const kept: ResponseItem[] = [];
  let remaining = maxTokens;
  for (let index = prompts.length - 1; index >= 0 && remaining > 0; index--) {
    const prompt = prompts[index]!;
    const tokens = approximateTokens(promptText(prompt));
    if (tokens <= remaining) {
      kept.unshift(prompt);
      remaining -= tokens;
      continue;
    }
    kept.unshift(truncatedPrompt(prompt, remaining));
    break;
  }
  return kept;
}

function promptText(item: ResponseItem): string {
  const content = (item as { content?: unknown }).content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ((part as { text?: unknown }).text as string | undefined) ?? '').join('\n');
}

function truncatedPrompt(item: ResponseItem, maxTokens: number): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: truncateMiddle(promptText(item), maxTokens) }], ...(item.id === undefined ? {} : { id: item.id }) };
}
