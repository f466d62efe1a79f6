import type { CurrentTimeReminderConfig } from '@skein/features';
import type { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import type { TurnStep } from '../turn/turn-hooks.js';
import { CurrentTimeReminder, currentTimeReminderText } from './current-time-reminder.js';

const settings = (overrides: Partial<CurrentTimeReminderConfig> = {}): CurrentTimeReminderConfig => ({ reminder_interval_seconds: 0, clock_source: 'system', delivery_mode: 'any_inference', ...overrides });
const message = (role: string, text: string): ResponseItem => ({ type: 'message', role, content: [{ type: 'input_text', text }] });
const step = (history: readonly ResponseItem[]): TurnStep => ({ turnId: 't', samplingIndex: 1, signal: new AbortController().signal, history: () => history });

function reminderWith(config: CurrentTimeReminderConfig | undefined) {
  let at = Date.parse('2026-06-17T17:34:15Z');
  let windowId = 'w0';
  const hook = new CurrentTimeReminder({ settings: () => config, now: () => new Date(at), windowId: () => windowId });
  return { hook, advance: (seconds: number) => (at += seconds * 1000), moveTo: (id: string) => (windowId = id) };
}
const texts = (items: readonly ResponseItem[]) => items.map((item) => (item as { content: { text: string }[] }).content[0]!.text);

describe('CurrentTimeReminder', () => {
  it('renders the UTC time to the second in Codex’s tag', () => {
    expect(currentTimeReminderText(new Date('2026-06-17T17:34:15.999+02:00'))).toBe('<current_time_reminder>The current time is 2026-06-17 15:34:15 UTC.</current_time_reminder>');
  });

  it('says nothing while the feature is off', () => {
    expect(reminderWith(undefined).hook.beforeSampling(step([message('user', 'hi')]))).toEqual([]);
  });

  it('in after_user_or_tool_output mode waits for a user message or a tool output; any_inference does not', () => {
    const afterAssistant = [message('user', 'hi'), message('assistant', 'thinking aloud')];
    expect(reminderWith(settings({ delivery_mode: 'after_user_or_tool_output' })).hook.beforeSampling(step(afterAssistant))).toEqual([]);
    expect(reminderWith(settings()).hook.beforeSampling(step(afterAssistant))).toHaveLength(1);
    const afterOutput = [message('user', 'hi'), { type: 'function_call_output', call_id: 'c', output: 'ok' } as ResponseItem];
    expect(reminderWith(settings({ delivery_mode: 'after_user_or_tool_output' })).hook.beforeSampling(step(afterOutput))).toHaveLength(1);
  });

  it('is due when the clock goes back, even within the interval, and in every new window', () => {
    const { hook, advance, moveTo } = reminderWith(settings({ reminder_interval_seconds: 600 }));
    const history = [message('user', 'hi')];
    expect(texts(hook.beforeSampling(step(history)))).toEqual([currentTimeReminderText(new Date('2026-06-17T17:34:15Z'))]);
    advance(60);
    expect(hook.beforeSampling(step(history))).toEqual([]);
    advance(-120);
    expect(texts(hook.beforeSampling(step(history)))).toEqual([currentTimeReminderText(new Date('2026-06-17T17:33:15Z'))]);
    moveTo('w1');
    expect(hook.beforeSampling(step(history))).toHaveLength(1);
    hook.reset();
    expect(hook.beforeSampling(step(history))).toHaveLength(1);
  });
});
