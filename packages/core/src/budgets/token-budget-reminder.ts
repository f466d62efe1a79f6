// The token budget's reminder: once per context window, before a request, when the tokens left
// before the next automatic compaction have fallen to `reminder_threshold_tokens`. Level-triggered,
// so a window already below the threshold (a resumed one) is reminded before its next request; a new
// window (compaction) or a restore re-arms it.
import { TOKEN_BUDGET_REMAINING_PLACEHOLDER, type TokenBudgetConfig } from '@skein/features';
import type { ResponseItem } from '@skein/protocol';
import { truncateMiddle } from '../history/truncate-output.js';
import type { BeforeSamplingHook, TurnStep } from '../turn/turn-hooks.js';
import type { ContextBudget } from './context-budget.js';

/** The threshold when none is configured (the value of Codex's model presets). */
export const DEFAULT_REMINDER_THRESHOLD_TOKENS = 6144;

/** The reminder when no template is configured (our wording). */
export const DEFAULT_REMINDER_TEMPLATE = [
  '<context_window_reminder>',
  `This context window is nearly full: about ${TOKEN_BUDGET_REMAINING_PLACEHOLDER} tokens remain before it is compacted and the conversation so far is replaced by a summary. Finish the step in hand, and say in your own words anything the next window will need.`,
  '</context_window_reminder>',
].join('\n');

/** The most an expanded reminder may hold, in tokens (a template may repeat its placeholder). */
export const REMINDER_TEXT_MAX_TOKENS = 1_000;

/** `template` with every `{n_remaining}` replaced by `remaining`, cut in the middle if it grew past the bound. */
export function expandReminderTemplate(template: string, remaining: number): string {
  return truncateMiddle(template.replaceAll(TOKEN_BUDGET_REMAINING_PLACEHOLDER, String(remaining)), REMINDER_TEXT_MAX_TOKENS);
}

/** What the reminder reads: the settings now (undefined while the feature is off), the budget and the window. */
export interface TokenBudgetReminderOptions {
  readonly settings: () => TokenBudgetConfig | undefined;
  readonly budget: ContextBudget;
  readonly windowId: () => string;
}

/** The before-sampling hook that records the reminder. */
export class TokenBudgetReminder implements BeforeSamplingHook {
  readonly name = 'token-budget-reminder';
  readonly #options: TokenBudgetReminderOptions;
  /** The window the reminder was last given in. */
  #remindedIn: string | undefined;

  constructor(options: TokenBudgetReminderOptions) {
    this.#options = options;
  }

  /** Re-arms the reminder (a restored thread is reminded again if its window is low). */
  reset(): void {
    this.#remindedIn = undefined;
  }

  beforeSampling(step: TurnStep): readonly ResponseItem[] {
    const settings = this.#options.settings();
    if (settings === undefined) return [];
    const windowId = this.#options.windowId();
    if (this.#remindedIn === windowId) return [];
    const remaining = this.#options.budget.remaining(step.history());
    if (remaining > (settings.reminder_threshold_tokens ?? DEFAULT_REMINDER_THRESHOLD_TOKENS)) return [];
    this.#remindedIn = windowId;
    const text = expandReminderTemplate(settings.reminder_message_template ?? DEFAULT_REMINDER_TEMPLATE, remaining);
    return [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] }];
  }
}
