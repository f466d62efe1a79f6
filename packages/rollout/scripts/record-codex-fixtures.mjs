// Records the test fixtures in test/fixtures/codex/: each scenario runs the real Codex 0.171.0
// (`codex exec`, then `exec resume` / `exec fork`) against the mock Responses server, and keeps the
// rollout files Codex wrote and the model-visible history Codex itself replayed into its last
// request. Codex's prose (base instructions, permission and tool texts, the compaction prefix) is
// replaced by placeholders and machine paths by fixed ones. Run: `node scripts/record-codex-fixtures.mjs`.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  assistantMessage,
  completed,
  customToolCall,
  functionCall,
  sse,
  startMockResponsesServer,
} from '@skein/test-support';
import { resolveCodexBinary } from '@skein/test-support';
import { codexMockConfig } from './codex-mock-config.mjs';

const FIXTURES = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'codex');
// Outside TMPDIR: Codex refuses to create its helper binaries under the temp dir.
const SCRATCH = path.join(homedir(), '.skein-rollout-recordings');

const final = (text) => assistantMessage(text, { phase: 'final_answer' });
const SCENARIOS = {
  plain_reply: {
    finalReply: 'Hello there.',
    responses: [sse(final('Hello there.'), completed())],
    steps: [() => ['exec', '--json', '--skip-git-repo-check', 'Say hello.']],
  },
  shell_call: {
    finalReply: 'It printed `hi`.',
    responses: [sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(final('It printed `hi`.'), completed())],
    steps: [() => ['exec', '--json', '--skip-git-repo-check', 'Run `echo hi` and tell me what it printed.']],
  },
  apply_patch: {
    finalReply: 'Created hello.txt.',
    responses: [
      sse(customToolCall('apply_patch', '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n'), completed()),
      sse(final('Created hello.txt.'), completed()),
    ],
    steps: [() => ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', 'Create hello.txt containing hello.']],
  },
  resume: {
    finalReply: 'Second answer.',
    responses: [sse(final('First answer.'), completed()), sse(final('Second answer.'), completed())],
    steps: [
      () => ['exec', '--json', '--skip-git-repo-check', 'First question.'],
      (id) => ['exec', 'resume', '--json', '--skip-git-repo-check', id, 'Second question.'],
    ],
  },
  compaction: {
    finalReply: 'Second answer.',
    // 5000 reported tokens against a 2000-token limit: Codex compacts before the second turn.
    config: 'model_auto_compact_token_limit = 2000',
    responses: [
      sse(final('First answer.'), completed({ usage: { inputTokens: 4990, outputTokens: 10 } })),
      sse(assistantMessage('SUMMARY: the user asked a first question and got a first answer.'), completed()),
      sse(final('Second answer.'), completed()),
    ],
    steps: [
      () => ['exec', '--json', '--skip-git-repo-check', 'First question.'],
      (id) => ['exec', 'resume', '--json', '--skip-git-repo-check', id, 'Second question.'],
    ],
  },
  fork: {
    finalReply: 'Forked answer.',
    responses: [sse(final('First answer.'), completed()), sse(final('Second answer.'), completed()), sse(final('Forked answer.'), completed())],
    steps: [
      () => ['exec', '--json', '--skip-git-repo-check', 'First question.'],
      (id) => ['exec', 'resume', '--json', '--skip-git-repo-check', id, 'Second question.'],
      (id) => ['exec', 'fork', '--json', '--skip-git-repo-check', id, 'Forked question.'],
    ],
  },
};

const codex = resolveCodexBinary(import.meta.url);
if (codex.missing) throw new Error(codex.missing);
mkdirSync(FIXTURES, { recursive: true });
try {
  for (const [name, scenario] of Object.entries(SCENARIOS)) await record(name, scenario);
} finally {
  rmSync(SCRATCH, { recursive: true, force: true });
}

async function record(name, scenario) {
  const dir = path.join(SCRATCH, name);
  rmSync(dir, { recursive: true, force: true });
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const server = await startMockResponsesServer({ responses: scenario.responses });
  try {
    writeFileSync(path.join(home, 'config.toml'), codexMockConfig(server.url, scenario.config ?? ''));
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, MOCK_API_KEY: 'mock', TERM: 'dumb' };
    let threadId;
    for (const step of scenario.steps) {
      const { code, stdout, stderr } = await run(codex.binary, step(threadId), env, workspace);
      if (code !== 0) throw new Error(`${name}: codex exited ${code}\n${stderr}`);
      threadId ??= /"thread_id":"([^"]+)"/.exec(stdout)?.[1];
    }
    server.verify();
    const files = rolloutFiles(path.join(home, 'sessions')).sort();
    const sanitize = sanitizer({ [workspace]: '/workspace', [home]: '/codex-home' });
    const written = new Map();
    for (const file of files) written.set(file, sanitize.lines(readFileSync(file, 'utf8')));
    fixHistoryBaseOffsets(written);
    files.forEach((file, index) => {
      const suffix = files.length === 1 ? '' : `.${index + 1}`;
      writeFileSync(path.join(FIXTURES, `${name}${suffix}.rollout.jsonl`), written.get(file));
    });
    // What Codex replayed into its last request (after the base instructions), and the reply to it:
    // the history at the end of the newest file is exactly these.
    const lastRequestInput = server.requests.at(-1).inputItems().slice(1);
    const replayed = { lastRequestInput: sanitize.value(lastRequestInput), finalReply: scenario.finalReply };
    writeFileSync(path.join(FIXTURES, `${name}.replayed.json`), `${JSON.stringify(replayed, null, 1)}\n`);
    console.log(`${name}: ${files.length} rollout file(s), ${lastRequestInput.length} replayed items`);
  } finally {
    await server.close();
  }
}

function run(binary, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function rolloutFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...rolloutFiles(full));
    else if (entry.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/** Replaces Codex's prose by placeholders and machine paths by fixed ones, in every string. */
function sanitizer(paths) {
  const replacePaths = (text) => Object.entries(paths).reduce((acc, [from, to]) => acc.replaceAll(from, to), text);
  const prose = (text) => {
    for (const tag of ['skills_instructions', 'permissions instructions', 'tools']) {
      if (text.startsWith(`<${tag}>`)) return `<${tag}>\n<PROSE>\n</${tag}>`;
    }
    const summary = text.indexOf('SUMMARY:');
    if (text.startsWith('Another language model') && summary !== -1) return `<PROSE: summary prefix>\n${text.slice(summary)}`;
    return replacePaths(text);
  };
  const value = (node, key) => {
    if (typeof node === 'string') {
      if (key === 'base_instructions.text') return `<PROSE: base instructions>`;
      if (key === 'host_skills.body' || key === 'tools.multi_agent_v1') return '<PROSE>';
      return prose(node);
    }
    if (Array.isArray(node)) return node.map((child) => value(child, ''));
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, child]) => [replacePaths(k), value(child, `${keyName(key)}.${k}`)]));
    }
    return node;
  };
  const keyName = (key) => key.split('.').at(-1) ?? '';
  return {
    value: (node) => value(node, ''),
    lines: (text) =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => `${JSON.stringify(value(JSON.parse(line), ''))}\n`)
        .join(''),
  };
}

/** A fork's `history_base.end_byte_offset` counts its parent's bytes, which sanitizing changed. */
function fixHistoryBaseOffsets(written) {
  const byId = new Map();
  for (const [file, text] of written) byId.set(JSON.parse(text.split('\n')[0]).payload.id, file);
  for (const [file, text] of written) {
    const lines = text.split('\n');
    const head = JSON.parse(lines[0]);
    const base = head.payload.history_base;
    if (!base) continue;
    const parent = written.get(byId.get(base.thread_id)).split('\n').filter((line) => line !== '');
    const kept = parent.filter((line) => JSON.parse(line).ordinal < base.end_ordinal_exclusive);
    base.end_byte_offset = Buffer.byteLength(kept.map((line) => `${line}\n`).join(''));
    lines[0] = JSON.stringify(head);
    written.set(file, lines.join('\n'));
  }
}
