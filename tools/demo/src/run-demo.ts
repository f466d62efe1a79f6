// The offline demo: a temporary home whose config.toml points a `mock` provider at
// @skein/test-support's mock Responses server, a small workspace, a scripted model session (read a
// file, patch it, read it again, answer), and the real built `skein exec` running it in the sandbox.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { assistantMessage, completed, customToolCall, functionCall, sse, startMockResponsesServer, type ScriptedResponse } from '@skein/test-support';

/** Rollout lines the demo summarizes (a one-turn demo writes fewer). */
export const SHOWN_ROLLOUT_LINES = 30;

/** The parts of a rollout line the summary names; the file is ours, but it is still read from disk. */
const RolloutLineHead = z.object({
  type: z.string(),
  payload: z.object({ type: z.string().optional(), role: z.string().optional(), name: z.string().optional() }).loose(),
});

/** The prompt the demo sends. */
export const DEMO_PROMPT = 'Add "try Skein offline" to notes.md and show me the result.';

const NOTES = '# Notes\n\n- read the design notes\n';
const PATCH = ['*** Begin Patch', '*** Update File: notes.md', '@@', ' - read the design notes', '+- try Skein offline', '*** End Patch'].join('\n');

/** What the scripted model answers, one response per request `skein exec` sends. */
export function demoScript(): ScriptedResponse[] {
  return [
    sse(functionCall('exec_command', { cmd: 'cat notes.md' }), completed()),
    sse(customToolCall('apply_patch', PATCH), completed()),
    sse(functionCall('exec_command', { cmd: 'cat notes.md' }), completed()),
    sse(assistantMessage('I added "try Skein offline" to notes.md; it now has two items.'), completed()),
  ];
}

/** Where the demo writes and prints. */
export interface DemoOptions {
  /** An empty directory the demo owns: `home/` and `workspace/` are created in it. */
  readonly dir: string;
  readonly out: (text: string) => void;
  /** The environment `skein` runs with (PATH and HOME, say); the demo adds its own home. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Runs the demo; resolves to `skein exec`'s exit code (0 when the turn completed). */
export async function runDemo(options: DemoOptions): Promise<number> {
  const { dir, out } = options;
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'notes.md'), NOTES);

  const server = await startMockResponsesServer();
  try {
    server.expect(demoScript());
    // The same keys point Skein (or Codex) at OpenAI or any Responses-compatible server.
    writeFileSync(
      path.join(home, 'config.toml'),
      ['model = "gpt-5.5"', 'model_provider = "mock"', '', '[model_providers.mock]', 'name = "Mock model (scripted, offline)"', `base_url = "${server.url}"`, 'wire_api = "responses"', ''].join('\n'),
    );
    const args = ['exec', '--sandbox', 'workspace-write', '--skip-git-repo-check', '--cd', workspace, DEMO_PROMPT];
    out(`Skein offline demo: a scripted mock model at ${server.url} (no API key) drives the real skein binary.\n`);
    out(`home (config.toml, sessions/): ${home}\nworkspace: ${workspace}\n\n$ skein ${args.slice(0, -1).join(' ')} '${DEMO_PROMPT}'\n\n`);
    const code = await runSkein(args, { ...options.env, SKEIN_HOME: home, CODEX_HOME: home }, out);
    out(`\nskein exited with ${code}.\n`);

    out(`\nnotes.md after the turn:\n${indent(readFileSync(path.join(workspace, 'notes.md'), 'utf8'))}`);
    const rollout = findRollout(path.join(home, 'sessions'));
    if (rollout === undefined) out('\nNo rollout was written.\n');
    else {
      const lines = readFileSync(rollout, 'utf8').trimEnd().split('\n');
      out(`\nThe rollout, one JSON object a line:\n${rollout}\n`);
      for (const [index, line] of lines.slice(0, SHOWN_ROLLOUT_LINES).entries()) out(`  ${String(index + 1).padStart(2)}  ${summarize(line)}\n`);
      if (lines.length > SHOWN_ROLLOUT_LINES) out(`  ... ${lines.length - SHOWN_ROLLOUT_LINES} more\n`);
      // The scripted model stops with the demo, so resuming needs a real one.
      out(`\nThe mock model is gone once the demo ends. To continue this thread, point model_provider in\n${path.join(home, 'config.toml')} at a real provider and run: SKEIN_HOME=${home} skein exec resume --last\n`);
    }
    server.verify();
    return code;
  } finally {
    await server.close();
  }
}

/** Runs the built `skein` binary of @skein/cli with Node, passing its output through. */
function runSkein(args: readonly string[], env: Readonly<Record<string, string | undefined>>, out: (text: string) => void): Promise<number> {
  // @skein/cli's entry point sits beside its bin in dist/.
  const bin = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/cli'))), 'bin.cjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => out(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => out(chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

function findRollout(sessions: string): string | undefined {
  if (!existsSync(sessions)) return undefined;
  const names = readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl'));
  return names[0] === undefined ? undefined : path.join(sessions, names[0]);
}

/** `response_item message (developer)`, `event_msg task_started`, `response_item function_call exec_command`. */
function summarize(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return '(not JSON)';
  }
  const head = RolloutLineHead.safeParse(parsed);
  if (!head.success) return '(not a rollout line)';
  const { type, payload } = head.data;
  const detail = payload.role ?? payload.name;
  return [type, payload.type, detail === undefined ? undefined : type === 'response_item' && payload.role !== undefined ? `(${detail})` : detail].filter((part) => part !== undefined).join(' ');
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}
