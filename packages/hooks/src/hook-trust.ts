// A hook runs only once the user trusted exactly what it is: `[hooks.state."<key>"] trusted_hash`
// in their own config holds the hash of the hook's definition, computed as Codex 0.171.0 computes it
// (probed: SHA-256 of the sorted-key JSON of event, matcher and handler), so trust given in either
// tool holds in the other. Any change to the hook changes the hash: it is `modified`, and untrusted.
import { createHash } from 'node:crypto';
import type { HookEventName } from '@skein/extension-api';
import { snakeName, usesMatcher } from './hook-events.js';
import type { HookStateTable } from './hook-config.js';

/** Said when hooks run without trust (`--dangerously-bypass-hook-trust`), so nobody leaves it on unknowingly. */
export const BYPASS_HOOK_TRUST_WARNING = '--dangerously-bypass-hook-trust is on: every enabled hook runs without the user having trusted it, for this run only.';

/** How a hook's trust stands. */
export type HookTrustStatus = 'managed' | 'untrusted' | 'trusted' | 'modified';

/** What a hook runs: a shell command, or a tool of one of the thread's MCP servers (called with `input` as its arguments). */
export type HookHandler =
  | { readonly type: 'command'; readonly command: string; readonly async: boolean }
  | { readonly type: 'mcpTool'; readonly server: string; readonly tool: string; readonly input: Readonly<Record<string, unknown>> };

/** The parts of a hook its hash covers. */
export interface HookDefinition {
  readonly event: HookEventName;
  readonly matcher: string | null;
  readonly handler: HookHandler;
  readonly timeoutSec: number;
  readonly statusMessage: string | null;
}

/** `sha256:<hex>` of the hook's definition. */
export function hookHash(hook: HookDefinition): string {
  const { handler: what } = hook;
  const handler: Record<string, unknown> =
    what.type === 'command'
      ? { async: what.async, command: what.command, timeout: hook.timeoutSec, type: 'command' }
      : { input: what.input, server: what.server, timeout: hook.timeoutSec, tool: what.tool, type: 'mcp_tool' };
  if (hook.statusMessage !== null) handler.statusMessage = hook.statusMessage;
  const definition: Record<string, unknown> = { event_name: snakeName(hook.event), hooks: [handler] };
  if (hook.matcher !== null && usesMatcher(hook.event)) definition.matcher = hook.matcher;
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/** Whether the stored state trusts `currentHash` for `key`. */
export function trustStatus(state: HookStateTable, key: string, currentHash: string): HookTrustStatus {
  const trusted = state[key]?.trusted_hash;
  if (trusted === undefined) return 'untrusted';
  return trusted === currentHash ? 'trusted' : 'modified';
}

/** JSON with every object's keys sorted, no spaces (serde_json's compact form of a sorted map). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
