// What `skein exec` shows a person when not printing JSON: a banner with the thread's settings, then
// the turn as it happens — the prompt, commands with their output and exit code, patches, reasoning,
// agent messages, errors and the tokens used — all on stderr; stdout is kept for the final message.
import { styleText } from 'node:util';
import type { Config } from '@skein/config';
import type { CoreEvent, McpToolCallTurnItem } from '@skein/core';
import { isKnownResponseItem, messageText } from '@skein/protocol';

/** A command's output lines shown in full; the rest are counted, not printed (the model saw them). */
export const MAX_SHOWN_OUTPUT_LINES = 20;

/** When to use ANSI styling: `auto` styles only a terminal that has not asked for no color. */
export type ColorMode = 'always' | 'never' | 'auto';

/** Whether to style output for `mode`, given where stderr goes and the environment. */
export function useColor(mode: ColorMode, stderrIsTerminal: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  if (mode !== 'auto') return mode === 'always';
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stderrIsTerminal && !noColor && env.TERM !== 'dumb';
}

/** The thread settings the banner shows. */
export interface BannerInfo {
  readonly version: string;
  readonly config: Config;
  readonly threadId: string;
  /** The rollout file; undefined when the thread is ephemeral. */
  readonly rolloutPath: string | undefined;
}

type Style = Parameters<typeof styleText>[0];

/** Renders one exec run for a person; feed it every core event of the run. */
export class HumanOutput {
  readonly #write: (text: string) => void;
  readonly #color: boolean;
  #tokens = 0;

  constructor(options: { readonly write: (text: string) => void; readonly color: boolean }) {
    this.#write = options.write;
    this.#color = options.color;
  }

  /** The settings the turn runs with, framed by rules. */
  banner(info: BannerInfo): void {
    const { config } = info;
    const rows: [string, string][] = [
      ['workdir', config.cwd],
      ['model', config.model],
      ['provider', config.modelProviderId],
      ['approval', typeof config.approvalPolicy === 'string' ? config.approvalPolicy : 'granular'],
      ['sandbox', describeSandbox(config)],
      ['reasoning effort', config.modelReasoningEffort ?? 'model default'],
      // `session id` on a resume too: wrappers read the id from this line, as from Codex's.
      ['session id', info.threadId],
      ['rollout', info.rolloutPath ?? 'none (ephemeral: nothing is written)'],
    ];
    const rule = `${'-'.repeat(8)}\n`;
    this.#write(`${this.#style('bold', `skein ${info.version}`)} (exec)\n${rule}`);
    for (const [label, value] of rows) this.#write(`${this.#style('bold', `${label}:`)} ${value}\n`);
    this.#write(rule);
  }

  /** The user's prompt, as sent. */
  prompt(text: string): void {
    this.#block('cyan', 'user', text);
  }

  /** Shows what `event` means to a person, if anything. */
  event(event: CoreEvent): void {
    switch (event.type) {
      case 'turnStarted':
        this.#tokens = 0;
        return;
      case 'commandStarted':
        this.#write(`${this.#style('magenta', 'command')}\n${this.#style('bold', event.command)} in ${event.cwd}\n`);
        return;
      case 'commandCompleted':
        this.#commandCompleted(event.exitCode, event.durationMs, event.aggregatedOutput);
        return;
      case 'patchApplied': {
        const heading = event.success ? this.#style('green', 'patch applied') : this.#style('red', 'patch not applied');
        const kinds = { add: 'A', update: 'M', delete: 'D' } as const;
        const lines = event.changes.map((change) => `  ${kinds[change.kind]} ${change.movePath === undefined ? change.path : `${change.path} -> ${change.movePath}`}`);
        this.#write(`${heading}\n${lines.join('\n')}\n`);
        return;
      }
      case 'turnDiffUpdated':
        // The turn's changes so far, after each applied patch, as Codex's exec prints them.
        if (event.diff !== '') this.#write(`${event.diff}\n`);
        return;
      case 'itemCompleted': {
        const { item } = event;
        if (!isKnownResponseItem(item)) return;
        if (item.type === 'message' && item.role === 'assistant') this.#block('magenta', 'agent', messageText(item));
        else if (item.type === 'reasoning' && item.summary.length > 0) this.#block('dim', 'thinking', item.summary.map((part) => part.text).join('\n\n'));
        return;
      }
      case 'tokenUsage':
        this.#tokens += event.usage.total_tokens;
        return;
      case 'turnCompleted':
        this.#writeTokens();
        return;
      case 'turnFailed':
        this.#write(`${this.#style('red', 'error:')} ${event.error.message}\n`);
        this.#writeTokens();
        return;
      case 'turnAborted':
        this.#write(`${this.#style('red', 'error:')} ${event.error?.message ?? 'the turn was interrupted'}\n`);
        return;
      case 'streamRetrying':
        this.#write(`${this.#style('yellow', 'retrying:')} model stream attempt ${event.attempt} in ${event.delayMs} ms (${event.reason})\n`);
        return;
      case 'warning':
        this.#write(`${this.#style('yellow', 'warning:')} ${event.message}\n`);
        return;
      case 'toolProgress':
        this.#write(`${this.#style('dim', event.message)}\n`);
        return;
      case 'imageViewed':
        this.#write(`${this.#style('dim', 'viewed image')} ${event.path}\n`);
        return;
      case 'turnItem':
        // A search shows when it starts (no query yet) and when it is done, as Codex's exec shows it.
        if (event.item.kind === 'webSearch') this.#write(`${this.#style('magenta', 'web search:')} ${event.item.query}\n`);
        if (event.item.kind === 'mcpToolCall') this.#mcpToolCall(event.phase, event.item);
        return;
      case 'mcpServerStatus':
        if (event.status === 'ready') this.#write(`${this.#style('dim', `mcp: ${event.name} ready`)}\n`);
        if (event.status === 'failed') this.#write(`${this.#style('yellow', `mcp: ${event.name} failed:`)} ${event.error ?? 'unknown error'}\n`);
        return;
      case 'mcpToolCallProgress': // toolProgress carries the same words.
        return;
      case 'goalUpdated':
        this.#write(`${this.#style('dim', `goal (${event.goal.status}): ${event.goal.objective}`)}\n`);
        return;
      case 'goalCleared':
      case 'safetyBuffering': // Codex's exec shows nothing of it either (probed).
        return;
      case 'hookRun':
        this.#hookRun(event.phase, event.run);
        return;
      case 'sessionConfigured':
      case 'threadNameUpdated':
      case 'threadRolledBack':
      case 'threadTokenUsage':
      case 'itemStarted':
      case 'agentMessageDelta':
      case 'reasoningSummaryDelta':
      case 'commandOutputDelta':
      case 'turnItemOutputDelta':
      case 'compactionStarted': // Codex's exec shows nothing of a compaction.
      case 'compactionEnded':
        return;
    }
  }

  /** Each hook run as Codex's exec shows it (`hook: PreToolUse`, then `hook: PreToolUse Blocked`), with why when it blocked or failed. */
  #hookRun(phase: 'started' | 'completed', run: Extract<CoreEvent, { type: 'hookRun' }>['run']): void {
    const name = run.eventName[0]!.toUpperCase() + run.eventName.slice(1);
    if (phase === 'started') return this.#write(`${this.#style('dim', `hook: ${name}`)}\n`);
    const status = run.status[0]!.toUpperCase() + run.status.slice(1);
    const color = run.status === 'completed' ? 'dim' : run.status === 'blocked' ? 'yellow' : 'red';
    this.#write(`${this.#style(color, `hook: ${name} ${status}`)}\n`);
    if (run.status !== 'completed') for (const entry of run.entries) this.#write(`  ${entry.text}\n`);
  }

  #mcpToolCall(phase: 'started' | 'completed', item: McpToolCallTurnItem): void {
    const call = `${item.server}.${item.tool}(${JSON.stringify(item.arguments ?? {})})`;
    if (phase === 'started') {
      this.#write(`${this.#style('magenta', 'tool')} ${call}\n`);
      return;
    }
    const took = `in ${Math.round(item.durationMs ?? 0)} ms`;
    if (item.status !== 'completed') {
      this.#write(`${this.#style('red', `${call} failed ${took}:`)} ${item.error?.message ?? textOf(item.result?.content ?? [])}\n`);
      return;
    }
    this.#write(`${this.#style('green', `${call} succeeded ${took}:`)}\n`);
    const text = textOf(item.result?.content ?? []);
    if (text !== '') this.#commandOutput(text);
  }

  #commandCompleted(exitCode: number | null, durationMs: number, output: string): void {
    const status =
      exitCode === 0
        ? this.#style('green', `succeeded in ${Math.round(durationMs)} ms`)
        : this.#style('red', `${exitCode === null ? 'ended without an exit code' : `exited ${exitCode}`} in ${Math.round(durationMs)} ms`);
    this.#write(`${status}\n`);
    this.#commandOutput(output);
  }

  /** Output, its first lines only. */
  #commandOutput(output: string): void {
    const lines = output.endsWith('\n') ? output.slice(0, -1).split('\n') : output.split('\n');
    const shown = output === '' ? [] : lines.slice(0, MAX_SHOWN_OUTPUT_LINES);
    const hidden = output === '' ? 0 : lines.length - shown.length;
    if (shown.length > 0) this.#write(`${this.#style('dim', shown.join('\n'))}\n`);
    if (hidden > 0) this.#write(`${this.#style('dim', `... ${hidden} more line${hidden === 1 ? '' : 's'}`)}\n`);
  }

  /** `tokens used` and the count on the next line, with thousands separators, as Codex prints them (wrappers parse both lines). */
  #writeTokens(): void {
    this.#write(`${this.#style('dim', 'tokens used')}\n${this.#tokens.toLocaleString('en-US')}\n`);
  }

  #block(style: Style, heading: string, text: string): void {
    this.#write(`${this.#style(style, heading)}\n${text}\n`);
  }

  #style(style: Style, text: string): string {
    // The decision is made once, by useColor, for stderr; styleText would check stdout instead.
    return this.#color ? styleText(style, text, { validateStream: false }) : text;
  }
}

/** The text blocks of an MCP result, one per line; other blocks by their type. */
function textOf(content: readonly unknown[]): string {
  return content
    .map((block) => {
      const { type, text } = block as { type?: unknown; text?: unknown };
      return typeof text === 'string' ? text : `[${String(type)}]`;
    })
    .join('\n');
}

/** `workspace-write (writes: workdir, /tmp, $TMPDIR, …)`: the mode and, when writable, where. */
function describeSandbox(config: Config): string {
  if (config.sandboxMode !== 'workspace-write') return config.sandboxMode;
  const { writableRoots, excludeSlashTmp, excludeTmpdirEnvVar, networkAccess } = config.sandboxWorkspaceWrite;
  const roots = ['workdir', ...(excludeSlashTmp ? [] : ['/tmp']), ...(excludeTmpdirEnvVar ? [] : ['$TMPDIR']), ...writableRoots];
  return `workspace-write (writes: ${roots.join(', ')}${networkAccess ? '; network on' : ''})`;
}
