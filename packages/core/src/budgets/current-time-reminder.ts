// Current-time reminders (`current_time_reminder`): a developer message with the current UTC time,
// recorded just before a model request when one is due. Due means: none told in this context window
// yet (so a compaction forces one), or the clock reads a different second than the last one told and
// the configured interval has passed (or the clock went back). The cadence is the thread's own.
import type { CurrentTimeReminderConfig } from '@skein/features';
import { CURRENT_TIME_REMINDER_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { BeforeSamplingHook, TurnStep } from '../turn/turn-hooks.js';

/** What the reminder reads: its settings now (undefined while the feature is off), the clock and the window. */
export interface CurrentTimeReminderOptions {
  readonly settings: () => CurrentTimeReminderConfig | undefined;
  /** The thread's injected clock. */
  readonly now: () => Date;
  /** The id of the context window the thread is in. */
  readonly windowId: () => string;
}

/** The reminder's text for `time`, e.g. `<current_time_reminder>The current time is 2026-06-17 17:34:15 UTC.</current_time_reminder>`. */
export function currentTimeReminderText(time: Date): string {
  return CURRENT_TIME_REMINDER_FRAGMENT.render(`The current time is ${utcSecond(time)} UTC.`).text;
}

/** The before-sampling hook that records a reminder when one is due. */
export class CurrentTimeReminder implements BeforeSamplingHook {
  readonly name = 'current-time-reminder';
  readonly #options: CurrentTimeReminderOptions;
  #last: { readonly atMs: number; readonly second: string; readonly windowId: string } | undefined;

  constructor(options: CurrentTimeReminderOptions) {
    this.#options = options;
  }

  /** Forgets the last reminder (a resumed thread tells the time again before its next request). */
  reset(): void {
    this.#last = undefined;
  }

  beforeSampling(step: TurnStep): readonly ResponseItem[] {
    const settings = this.#options.settings();
    if (settings === undefined) return [];
    if (settings.delivery_mode === 'after_user_or_tool_output' && !followsUserOrToolOutput(step.history())) return [];
    const now = this.#options.now();
    const second = utcSecond(now);
    const windowId = this.#options.windowId();
    if (!this.#isDue(settings, now.getTime(), second, windowId)) return [];
    this.#last = { atMs: now.getTime(), second, windowId };
    return [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: currentTimeReminderText(now) }] }];
  }

  #isDue(settings: CurrentTimeReminderConfig, atMs: number, second: string, windowId: string): boolean {
    const last = this.#last;
    if (last === undefined || last.windowId !== windowId) return true;
    if (second === last.second) return false;
    const elapsedMs = atMs - last.atMs;
    return elapsedMs < 0 || elapsedMs >= settings.reminder_interval_seconds * 1000;
  }
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
function utcSecond(time: Date): string {
  return time.toISOString().slice(0, 19).replace('T', ' ');
}

const TOOL_OUTPUTS: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output']);

/** Whether the newest item is the user's input or a tool's output (what `after_user_or_tool_output` waits for). */
function followsUserOrToolOutput(history: readonly ResponseItem[]): boolean {
  const last = history.at(-1);
  if (last === undefined) return false;
  if (TOOL_OUTPUTS.has(last.type)) return true;
  return last.type === 'message' && (last as { role?: unknown }).role === 'user';
}
