// How long a loaded thread that no client holds stays loaded (`thread_unload_delay_secs`), so a
// client that reconnects or re-subscribes soon finds it warm, and an abandoned one is released.
import type { Config } from '@skein/config';
import * as z from 'zod';
import { lazySchema } from '@skein/protocol';

/** Codex 0.171.0 unloads an unheld thread about a minute after its last client let go. */
export const DEFAULT_THREAD_UNLOAD_DELAY_SECS = 60;

const UnloadDelaySecs = lazySchema(() => z.number().int().nonnegative().max(2_147_483));

/** The delay in milliseconds: the highest-precedence layer that sets the key, else the default. */
export function threadUnloadDelayMs(config: Config): number {
  // Layers are lowest precedence first; a value that is not a whole number of seconds is ignored.
  for (const layer of [...config.layers].reverse()) {
    const parsed = UnloadDelaySecs.safeParse(layer.table['thread_unload_delay_secs']);
    if (parsed.success) return parsed.data * 1000;
  }
  return DEFAULT_THREAD_UNLOAD_DELAY_SECS * 1000;
}
