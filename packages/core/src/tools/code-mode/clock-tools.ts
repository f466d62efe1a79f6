// The `clock` namespace of code mode: `sleep`, offered to the model, and `curr_time`, which cells
// call as `tools.clock__curr_time()` (`{"current_time": "2026-12-05 19:32:11 UTC"}`, Codex's form).
import { defineFunctionTool, type NamespaceToolHandler } from '@skein/extension-api';
import * as z from 'zod';

/** The longest sleep: beyond it the model should wait on something real. */
export const MAX_SLEEP_MS = 600_000;

// Built once, not per thread (see collaboration-tools.ts).
const SleepArgs = z.object({ duration_ms: z.number().min(0).max(MAX_SLEEP_MS) });
const NoArgs = z.object({});

export function clockTools(now: () => number): NamespaceToolHandler {
  return {
    kind: 'namespace',
    name: 'clock',
    description: 'Time: wait, and read the current time.',
    tools: [
      defineFunctionTool({
        spec: {
          type: 'function',
          name: 'sleep',
          description: 'Waits for the given number of milliseconds (at most ten minutes), then answers.',
          strict: false,
          parameters: { type: 'object', properties: { duration_ms: { type: 'number', description: 'How long to wait, in milliseconds.' } }, required: ['duration_ms'], additionalProperties: false },
        },
        arguments: SleepArgs,
        async handle(args, context) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, args.duration_ms);
            context.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve();
            }, { once: true });
          });
          return { output: `Slept for ${args.duration_ms} ms.`, success: true };
        },
      }),
      {
        kind: 'function',
        exposure: 'hidden',
        spec: { type: 'function', name: 'curr_time', description: 'The current time in UTC.', strict: false, parameters: { type: 'object', properties: {}, additionalProperties: false } },
        arguments: NoArgs,
        handle: () => Promise.resolve({ output: JSON.stringify({ current_time: utcTime(now()) }), success: true }),
      },
    ],
  };
}

/** `2026-12-05 19:32:11 UTC`. */
function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
