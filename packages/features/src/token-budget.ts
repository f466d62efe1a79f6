// `[features.token_budget]`: the table as written in config.toml (types only) and the resolved,
// range-checked TokenBudgetConfig that Features carries while the feature is on.

import * as z from 'zod';
import { TomlBoolean, TomlInteger, TomlString, positiveInteger, utf8Bytes } from './internal/toml-value.js';

/** Upper bound of `reminder_message_template` and the other texts, in UTF-8 bytes (Codex's bound). */
export const TOKEN_BUDGET_TEXT_MAX_BYTES = 2000;
/** The placeholder a reminder template must contain; it is replaced by the tokens left. */
export const TOKEN_BUDGET_REMAINING_PLACEHOLDER = '{n_remaining}';

/**
 * `[features.token_budget]` as written in a config layer: every key optional, types checked, unknown
 * keys rejected. `enabled` turns the feature on or off; a table without it leaves the state as the
 * earlier layers set it (as Codex). Besides the issue's keys it accepts the ones Codex 0.171.0 knows
 * (`use_history_notes_extension`, `context_window_as_tool_output`, `guidance_message`,
 * `auto_compact_fallback_prompt`, `auto_compact_fallback_buffer_tokens`) so Codex configs load.
 */
export const TokenBudgetTable = z.strictObject({
  enabled: TomlBoolean.optional(),
  reminder_threshold_tokens: TomlInteger.optional(),
  reminder_message_template: TomlString.optional(),
  use_history_notes_extension: TomlBoolean.optional(),
  context_window_as_tool_output: TomlBoolean.optional(),
  guidance_message: TomlString.optional(),
  auto_compact_fallback_prompt: TomlString.optional(),
  auto_compact_fallback_buffer_tokens: TomlInteger.optional(),
});
/** `[features.token_budget]` as written in a config layer; see {@link TokenBudgetTable}. */
export type TokenBudgetTable = z.infer<typeof TokenBudgetTable>;

/** A text of at most {@link TOKEN_BUDGET_TEXT_MAX_BYTES} bytes. */
const BoundedText = z
  .string({ error: 'expected a string' })
  .refine((text) => utf8Bytes(text) <= TOKEN_BUDGET_TEXT_MAX_BYTES, {
    error: `must be at most ${TOKEN_BUDGET_TEXT_MAX_BYTES} bytes of UTF-8`,
  });

/**
 * The token budget in effect while `token_budget` is on, merged over every layer and range-checked.
 * Absent keys mean "the model's own default", which core decides. `reminder_message_template` must
 * be non-empty, at most {@link TOKEN_BUDGET_TEXT_MAX_BYTES} bytes and contain `{n_remaining}`.
 */
export const TokenBudgetConfig = z
  .strictObject({
    reminder_threshold_tokens: positiveInteger().optional(),
    reminder_message_template: BoundedText.refine((text) => text.trim() !== '', { error: 'must not be empty' })
      .refine((text) => text.includes(TOKEN_BUDGET_REMAINING_PLACEHOLDER), {
        error: `must contain the ${TOKEN_BUDGET_REMAINING_PLACEHOLDER} placeholder`,
      })
      .optional(),
    use_history_notes_extension: z.boolean().optional(),
    context_window_as_tool_output: z.boolean().optional(),
    guidance_message: BoundedText.optional(),
    auto_compact_fallback_prompt: BoundedText.optional(),
    auto_compact_fallback_buffer_tokens: positiveInteger().optional(),
  })
  .superRefine((config, context) => {
    // Codex refuses a fallback prompt with no buffer to deliver it in.
    if (config.auto_compact_fallback_prompt !== undefined && config.auto_compact_fallback_buffer_tokens === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['auto_compact_fallback_buffer_tokens'],
        message: 'is required when auto_compact_fallback_prompt is set',
      });
    }
  });
/** The token budget in effect; see {@link TokenBudgetConfig}. */
export type TokenBudgetConfig = z.infer<typeof TokenBudgetConfig>;
