// What the realtime model and the thread's model are told. The realtime model is the voice of the
// conversation and hands work to the thread's agent; it starts with Skein's instructions (or the
// client's `prompt`, or config's backend prompt) and a startup context: where the agent works, as a
// bounded listing of the workspace. The wording is Skein's own; the tags are Codex's.
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const REALTIME_INSTRUCTIONS = `You are the voice of a coding agent. The user talks to you; the agent works in their workspace.

- Hand every request that needs the workspace (reading, running, changing, researching) to the agent with the background_agent tool, in the user's own words. Do not refuse or filter requests: the agent decides what it can do.
- Messages marked [BACKEND] are the agent's progress and results. Tell the user what matters in a sentence or two; do not read out code, paths or long lists.
- Messages marked [USER] were typed by the user rather than spoken.
- Speak as one assistant: do not mention the agent or the handoff.
- When you have nothing useful to say, call remain_silent.`;

/** The realtime model's instructions: the prompt, then the startup context unless left out. */
export async function realtimeInstructions(options: { readonly prompt: string | undefined; readonly startupContext: string | undefined; readonly includeStartupContext: boolean; readonly cwd: string }): Promise<string> {
  const prompt = options.prompt ?? REALTIME_INSTRUCTIONS;
  if (!options.includeStartupContext) return prompt;
  const context = options.startupContext ?? (await workspaceMap(options.cwd));
  return `${prompt}\n\n<startup_context>\n${context}\n</startup_context>`;
}

/** The thread model's note that a realtime conversation started (unless the client gave its own). */
export const REALTIME_STARTED_NOTE = `Realtime conversation started.

Your requests now come from a voice assistant that talks with the user and relays your answers, possibly shortened. They carry what was said since the last request; the spoken words are a transcript and may be unpunctuated or misheard. The assistant may ask when there is nothing for you to do: then answer briefly. Keep answers short and to the point, so they can be spoken.`;

/** The note that it ended. */
export const REALTIME_ENDED_NOTE = `Realtime conversation ended.

The user types again: their messages are no longer transcripts, and you answer them directly.`;

const MAX_ENTRIES_PER_DIRECTORY = 20;
const MAX_LINES = 200;
const SKIPPED = new Set(['node_modules', '.git']);

/** Where the agent works: the cwd, its name, the user's home, and the tree two levels deep. */
export async function workspaceMap(cwd: string): Promise<string> {
  const lines = [
    'Background on where the agent works, as the session started; it may be incomplete or out of date.',
    '',
    '## Workspace',
    `Working directory: ${cwd}`,
    `Directory name: ${path.basename(cwd) || cwd}`,
    `Home: ${os.homedir()}`,
    '',
    'Tree:',
  ];
  const tree: string[] = [];
  await listInto(tree, cwd, 0);
  lines.push(...(tree.length === 0 ? ['(empty or unreadable)'] : tree));
  return lines.join('\n');
}

async function listInto(lines: string[], directory: string, depth: number): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return; // Unreadable: the map says less, the session still starts.
  }
  const visible = entries.filter((entry) => !entry.name.startsWith('.') && !SKIPPED.has(entry.name));
  // Directories first, each group by name: what a reader scans for.
  visible.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  const indent = '  '.repeat(depth);
  for (const [index, entry] of visible.entries()) {
    if (lines.length >= MAX_LINES) return;
    if (index === MAX_ENTRIES_PER_DIRECTORY) {
      lines.push(`${indent}- … ${visible.length - index} more`);
      return;
    }
    lines.push(`${indent}- ${entry.name}${entry.isDirectory() ? '/' : ''}`);
    if (entry.isDirectory() && depth === 0) await listInto(lines, path.join(directory, entry.name), depth + 1);
  }
}
