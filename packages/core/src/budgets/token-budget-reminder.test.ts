import { describe, expect, it } from 'vitest';
import { approximateTokens } from '../history/truncate-output.js';
import { DEFAULT_REMINDER_TEMPLATE, REMINDER_TEXT_MAX_TOKENS, expandReminderTemplate } from './token-budget-reminder.js';

describe('expandReminderTemplate', () => {
  it('replaces every placeholder with the tokens left', () => {
    expect(expandReminderTemplate('{n_remaining} left ({n_remaining})', 512)).toBe('512 left (512)');
    expect(DEFAULT_REMINDER_TEMPLATE).toContain('{n_remaining}');
    expect(expandReminderTemplate(DEFAULT_REMINDER_TEMPLATE, 7)).toMatch(/^<context_window_reminder>\n.*about 7 tokens remain.*\n<\/context_window_reminder>$/s);
  });

  it('keeps a template that repeats its placeholder within the bound, cut in the middle', () => {
    const expanded = expandReminderTemplate('{n_remaining}'.repeat(1_000), 123_456_789);
    expect(approximateTokens(expanded)).toBeLessThanOrEqual(REMINDER_TEXT_MAX_TOKENS + 10);
    expect(expanded.startsWith('123456789')).toBe(true);
    expect(expanded).toContain('tokens truncated');
  });
});
