// Hooks in a model scenario: real hook scripts that log what they read on stdin, declared in the
// home's config.toml and trusted by their hash (as a user's `/hooks` review would record it).
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookEventName } from '@skein/extension-api';
import { hookHash } from '@skein/hooks';
import type { AppServerTestClient } from '@skein/test-support';
import type { ModelScenario } from './model-scenario.js';

/** One hook for `event`: a shell script body (after `input=$(cat)` and the log line), or a tool of an MCP server. */
export interface HookSpec {
  readonly event: HookEventName;
  readonly matcher?: string;
  readonly script?: string;
  readonly mcp?: { readonly server: string; readonly tool: string; readonly input: Readonly<Record<string, unknown>> };
  readonly trusted: boolean;
}

/** Writes each hook's script and the config that declares it (trusted by its hash when `trusted`), with `before` top-level keys and `after` tables. */
export function configureHooks(scenario: ModelScenario, hooks: readonly HookSpec[], extra: { readonly before?: string; readonly after?: string } = {}): { readonly log: string; readonly configFile: string } {
  const { home } = scenario;
  const configFile = path.join(home.home, 'config.toml');
  const log = path.join(home.home, 'hook-inputs.jsonl');
  const tables: string[] = [];
  const groups = new Map<HookEventName, number>();
  hooks.forEach((hook, index) => {
    const name = hook.event[0]!.toUpperCase() + hook.event.slice(1);
    const handler = hook.mcp === undefined ? commandHandler(path.join(home.home, `hook-${index}.sh`), log, hook.script ?? 'exit 0') : hook.mcp;
    const body = 'command' in handler ? `type = "command"\ncommand = "${handler.command}"` : `type = "mcp_tool"\nserver = "${handler.server}"\ntool = "${handler.tool}"\ninput = ${inlineToml(handler.input)}`;
    tables.push(`[[hooks.${name}]]\n${hook.matcher === undefined ? '' : `matcher = "${hook.matcher}"\n`}[[hooks.${name}.hooks]]\n${body}\n`);
    // The trust key counts groups per event.
    const group = groups.get(hook.event) ?? 0;
    groups.set(hook.event, group + 1);
    if (hook.trusted) {
      const snake = hook.event.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const definition = 'command' in handler ? { type: 'command' as const, command: handler.command, async: false } : { type: 'mcpTool' as const, ...handler };
      const hash = hookHash({ event: hook.event, matcher: hook.matcher ?? null, handler: definition, timeoutSec: 600, statusMessage: null });
      tables.push(`[hooks.state."${configFile}:${snake}:${group}:0"]\ntrusted_hash = "${hash}"\n`);
    }
  });
  scenario.configure({ before: extra.before ?? '', after: `\n${tables.join('\n')}${extra.after ?? ''}` });
  return { log, configFile };
}

/** Writes a script that logs its stdin to `log`, then runs `body`. */
function commandHandler(file: string, log: string, body: string): { readonly command: string } {
  writeFileSync(file, `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" >> ${log}\n${body}\n`);
  chmodSync(file, 0o755);
  return { command: file };
}

/** A JSON object as a TOML inline table. */
function inlineToml(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return `{ ${Object.entries(value).map(([key, item]) => `${key} = ${inlineToml(item)}`).join(', ')} }`;
  return JSON.stringify(value);
}

/** What the hooks read, in the order they ran. */
export function hookInputs(log: string): Record<string, unknown>[] {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) : [];
}

/** Starts a turn with `text` and waits for it to complete; its id. */
export async function runTurn(client: AppServerTestClient, threadId: string, text: string): Promise<string> {
  const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
  return answer.turn.id;
}

/** The hook runs the client was told of, as `[method, eventName, status]`. */
export function hookRuns(client: AppServerTestClient, threadId?: string): [string, string, string][] {
  return client.notifications
    .filter((note) => (note.method === 'hook/started' || note.method === 'hook/completed') && (threadId === undefined || (note.params as { threadId: string }).threadId === threadId))
    .map((note) => {
      const { run } = note.params as { run: { eventName: string; status: string } };
      return [note.method, run.eventName, run.status];
    });
}
