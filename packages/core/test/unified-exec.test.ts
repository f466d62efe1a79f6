// exec_command and write_stdin end to end: real shells through LocalProcesses, the tools dispatched
// through ToolRouter, asserting on the model-visible text and the events clients get.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileSystemSandboxContext, LocalFileSystem, LocalProcesses, PlatformSandbox } from '@skein/exec-server';
import { PathUri, ResponseItem } from '@skein/protocol';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolRouter, isToolCall, type ToolCall } from '../src/tools/tool-router.js';
import { execCommandTool } from '../src/tools/unified-exec/exec-command-tool.js';
import { UnifiedExecSessions, type UnifiedExecEvent } from '../src/tools/unified-exec/unified-exec-sessions.js';
import { writeStdinTool } from '../src/tools/unified-exec/write-stdin-tool.js';
import { testToolContext } from './support/tool-context.js';

const { skip: SANDBOX_SKIP } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

const HEADER = /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\n/;

interface Harness {
  readonly dir: string;
  readonly sessions: UnifiedExecSessions;
  readonly processes: LocalProcesses;
  readonly events: UnifiedExecEvent[];
  /** Runs one tool call through the router; returns the output text and success flag. */
  call(name: string, args: object): Promise<{ text: string; success: boolean; callId: string }>;
}

let open: Harness[] = [];
let callCount = 0;

function harness(options: { maxSessions?: number; sandbox?: FileSystemSandboxContext | null; sandboxed?: boolean } = {}): Harness {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-unified-exec-')));
  const processes = new LocalProcesses(options.sandboxed === true ? { sandbox: new PlatformSandbox() } : {});
  const events: UnifiedExecEvent[] = [];
  const sessions = new UnifiedExecSessions({
    processes,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
    defaultShell: '/bin/bash',
    onEvent: (event) => events.push(event),
    maxSessions: options.maxSessions,
    monotonicMs: () => performance.now(),
  });
  const cwd = PathUri.fromNativePath(dir, 'posix');
  const router = new ToolRouter([execCommandTool({ sessionsFor: () => sessions }), writeStdinTool({ sessionsFor: () => sessions })]);
  const { callId: _unused, ...context } = testToolContext({ turnId: 'turn', fs: new LocalFileSystem(), processes, cwd, sandbox: options.sandbox ?? null });
  const made: Harness = {
    dir,
    sessions,
    processes,
    events,
    async call(name, args) {
      const callId = `call_${++callCount}`;
      const item = ResponseItem.parse({ type: 'function_call', name, call_id: callId, arguments: JSON.stringify(args) });
      if (!isToolCall(item)) throw new Error('not a call');
      const { item: output, success } = await router.dispatch(item satisfies ToolCall, context);
      if (output.type !== 'function_call_output' || typeof output.output !== 'string') throw new Error('expected a string function_call_output');
      return { text: output.output, success, callId };
    },
  };
  open.push(made);
  return made;
}

beforeEach(() => {
  open = [];
});

afterEach(async () => {
  for (const made of open) {
    await made.sessions.closeAll();
    await made.processes.close();
    rmSync(made.dir, { recursive: true, force: true });
  }
});

function sessionIdOf(text: string): number {
  const match = /\nProcess running with session ID (\d+)\n/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no session id in ${JSON.stringify(text)}`);
  return Number(match[1]);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

/** Starts a long sleep whose pid lands in `<dir>/<name>`; returns its session id and pid. */
async function startSleeper(made: Harness, name: string, tty = false): Promise<{ sessionId: number; pid: number }> {
  const { text } = await made.call('exec_command', { cmd: `echo $$ > ${name}; exec sleep 30`, yield_time_ms: 250, tty });
  const sessionId = sessionIdOf(text);
  const file = path.join(made.dir, name);
  await eventually(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n'), `${name} written`);
  return { sessionId, pid: Number(readFileSync(file, 'utf8').trim()) };
}

describe('exec_command', () => {
  it('runs echo and answers in Codex format, with begin / delta / end events', async () => {
    const made = harness();
    const { text, success, callId } = await made.call('exec_command', { cmd: 'echo hi' });
    expect(text).toMatch(HEADER);
    expect(text.replace(HEADER, '')).toBe('Process exited with code 0\nOriginal token count: 1\nOutput:\nhi\n');
    expect(success).toBe(true);
    const cwd = PathUri.fromNativePath(made.dir, 'posix');
    expect(made.events[0]).toMatchObject({ type: 'begin', callId, command: "/bin/bash -lc 'echo hi'", cmd: 'echo hi', cwd, tty: false, sandboxType: 'none' });
    const deltas = made.events.flatMap((event) => (event.type === 'outputDelta' ? [Buffer.from(event.chunk).toString()] : []));
    expect(deltas.join('')).toBe('hi\n');
    const end = made.events.at(-1);
    expect(end).toMatchObject({ type: 'end', callId, command: "/bin/bash -lc 'echo hi'", cwd, exitCode: 0, aggregatedOutput: 'hi\n', sandboxDenied: false });
    expect(end?.type === 'end' && end.durationMs >= 0).toBe(true);
    expect(made.sessions.liveSessionIds()).toEqual([]);
  });

  it('reports a failing command with its exit code and stderr', async () => {
    const made = harness();
    const { text, success } = await made.call('exec_command', { cmd: 'ls /definitely-missing-dir' });
    expect(text.replace(HEADER, '')).toBe(
      "Process exited with code 2\nOriginal token count: 18\nOutput:\nls: cannot access '/definitely-missing-dir': No such file or directory\n",
    );
    expect(success).toBe(false);
    expect(made.events.at(-1)).toMatchObject({ type: 'end', exitCode: 2 });
  });

  it('runs in workdir, relative to the turn cwd', async () => {
    const made = harness();
    mkdirSync(path.join(made.dir, 'sub'));
    const { text } = await made.call('exec_command', { cmd: 'pwd', workdir: 'sub' });
    expect(text.endsWith(`Output:\n${path.join(made.dir, 'sub')}\n`)).toBe(true);
    expect(made.events[0]).toMatchObject({ type: 'begin', cwd: PathUri.fromNativePath(path.join(made.dir, 'sub'), 'posix') });
  });

  it('cuts output over max_output_tokens in the middle and reports the original count', async () => {
    const made = harness();
    const { text } = await made.call('exec_command', { cmd: "head -c 4000 /dev/zero | tr '\\0' a", max_output_tokens: 100 });
    expect(text.replace(HEADER, '')).toBe(`Process exited with code 0\nOriginal token count: 1000\nOutput:\n${'a'.repeat(200)}…900 tokens truncated…${'a'.repeat(200)}`);
    // The client still gets the whole output.
    expect(made.events.at(-1)).toMatchObject({ type: 'end', aggregatedOutput: 'a'.repeat(4000) });
  });

  it('runs under a pseudo-terminal on request', async () => {
    const made = harness();
    const withTty = await made.call('exec_command', { cmd: 'test -t 1 && echo terminal', tty: true });
    expect(withTty.text.replace(HEADER, '')).toBe('Process exited with code 0\nOriginal token count: 3\nOutput:\nterminal\r\n');
    const withoutTty = await made.call('exec_command', { cmd: 'test -t 1 || echo pipe' });
    expect(withoutTty.text.endsWith('Output:\npipe\n')).toBe(true);
  });

  it('fails readably when the shell cannot start', async () => {
    const made = harness();
    const { text, success } = await made.call('exec_command', { cmd: 'true', workdir: 'missing' });
    expect(success).toBe(false);
    expect(text).toMatch(/^exec_command failed: /);
    expect(made.events).toEqual([]);
  });
});

describe('write_stdin', () => {
  it('continues a long-running command: running with a session id, then a poll that sees the exit', async () => {
    const made = harness();
    // The command waits for a file the test creates, so no stall of this process can let it finish early.
    const started = await made.call('exec_command', { cmd: 'while [ ! -e go ]; do sleep 0.05; done; echo done', yield_time_ms: 250 });
    expect(started.text.replace(HEADER, '')).toMatch(/^Process running with session ID \d+\nOriginal token count: 0\nOutput:\n$/);
    const sessionId = sessionIdOf(started.text);
    expect(made.sessions.liveSessionIds()).toEqual([sessionId]);
    expect(made.events.some((event) => event.type === 'end')).toBe(false);
    writeFileSync(path.join(made.dir, 'go'), '');

    const polled = await made.call('write_stdin', { session_id: sessionId, chars: '', yield_time_ms: 10_000 });
    expect(polled.text.replace(HEADER, '')).toBe('Process exited with code 0\nOriginal token count: 2\nOutput:\ndone\n');
    const ends = made.events.filter((event) => event.type === 'end');
    expect(ends).toEqual([expect.objectContaining({ callId: started.callId, sessionId, exitCode: 0, aggregatedOutput: 'done\n' })]);

    const again = await made.call('write_stdin', { session_id: sessionId, chars: '' });
    expect(again).toMatchObject({ text: `write_stdin failed: Unknown process id ${sessionId}`, success: false });
  });

  // cat closes its output before it exits; the executor used to close the terminal right then, and
  // when that won the race the kernel's hang-up killed cat (SIGHUP, exit 129): spawn-child.ts now
  // keeps the terminal until the child has exited (exec-server's spawn-child test provokes it).
  it('types into a tty cat and ends it with Ctrl-D', async () => {
    const made = harness();
    const started = await made.call('exec_command', { cmd: 'cat', tty: true, yield_time_ms: 500 });
    expect(made.events[0]).toMatchObject({ type: 'begin', command: '/bin/bash -lc cat', tty: true });
    const sessionId = sessionIdOf(started.text);

    // The terminal's echo and cat's copy usually both arrive within the wait; on a loaded machine
    // part of them may come with the next call, so the output is checked across both.
    const echoed = await made.call('write_stdin', { session_id: sessionId, chars: 'hello\n', yield_time_ms: 3000 });
    expect(echoed.text.replace(HEADER, '')).toMatch(new RegExp(`^Process running with session ID ${sessionId}\\nOriginal token count: \\d+\\nOutput:\\n`));

    const ended = await made.call('write_stdin', { session_id: sessionId, chars: '\u0004', yield_time_ms: 5000 });
    expect(ended.text.replace(HEADER, '')).toMatch(/^Process exited with code 0\nOriginal token count: \d+\nOutput:\n/);
    const outputOf = (text: string) => text.slice(text.indexOf('Output:\n') + 'Output:\n'.length);
    expect(outputOf(echoed.text) + outputOf(ended.text)).toBe('hello\r\nhello\r\n');
    expect(made.events.at(-1)).toMatchObject({ type: 'end', sessionId, exitCode: 0, aggregatedOutput: 'hello\r\nhello\r\n' });
  });

  it('refuses to type into a command without a terminal', async () => {
    const made = harness();
    const { sessionId } = await startSleeper(made, 'pid');
    const { text, success } = await made.call('write_stdin', { session_id: sessionId, chars: 'x' });
    expect(success).toBe(false);
    expect(text).toBe(`write_stdin failed: session ${sessionId} has no stdin; start the command with tty: true to write to it`);
  });

  it('answers an unknown session id as tool output', async () => {
    const made = harness();
    expect(await made.call('write_stdin', { session_id: 424242, chars: 'ls\n' })).toMatchObject({ text: 'write_stdin failed: Unknown process id 424242', success: false });
  });
});

describe('session table', () => {
  it('keeps sessions for reuse and prunes the least recently used one beyond the limit, killing it', async () => {
    const made = harness({ maxSessions: 2 });
    const first = await startSleeper(made, 'pid1', true);
    const second = await startSleeper(made, 'pid2');
    // Using the first makes the second the least recently used (a write, so the call returns after 250 ms, not a poll's 5 s).
    const reused = await made.call('write_stdin', { session_id: first.sessionId, chars: '\n', yield_time_ms: 250 });
    expect(reused.text).toContain(`Process running with session ID ${first.sessionId}\n`);
    const third = await startSleeper(made, 'pid3');

    expect(made.sessions.liveSessionIds().sort()).toEqual([first.sessionId, third.sessionId].sort());
    await eventually(() => !pidAlive(second.pid), 'pruned process killed');
    expect(pidAlive(first.pid) && pidAlive(third.pid)).toBe(true);
    expect((await made.call('write_stdin', { session_id: second.sessionId, chars: '' })).text).toBe(`write_stdin failed: Unknown process id ${second.sessionId}`);
  });

  it('closeAll kills every session and refuses new commands', async () => {
    const made = harness();
    const one = await startSleeper(made, 'pid1');
    const two = await startSleeper(made, 'pid2');
    await made.sessions.closeAll();
    await eventually(() => !pidAlive(one.pid) && !pidAlive(two.pid), 'sessions killed');
    expect(made.sessions.liveSessionIds()).toEqual([]);
    const { text } = await made.call('exec_command', { cmd: 'echo late' });
    expect(text).toBe('exec_command failed: the thread has ended; no more commands can run');
  });
});

describe('interrupts', () => {
  it('stop waiting when the turn is interrupted, leave the command running, and closeAll still kills it', async () => {
    const made = harness();
    const controller = new AbortController();
    const pidFile = path.join(made.dir, 'pid');
    const running = made.sessions.execCommand({ callId: 'c', cmd: 'echo $$ > pid; exec sleep 30', cwd: PathUri.fromNativePath(made.dir, 'posix'), sandbox: null, signal: controller.signal });
    await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'pid written');
    controller.abort(new Error('interrupted'));
    await expect(running).rejects.toThrow('interrupted');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(pidAlive(pid)).toBe(true);
    await made.sessions.closeAll();
    await eventually(() => !pidAlive(pid), 'interrupted command killed at thread end');
  });
});

describe(`sandboxed commands${SANDBOX_SKIP}`, () => {
  it.skipIf(SANDBOX_SKIP !== '')('writes inside the writable root and is denied outside it', async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-unified-exec-outside-')));
    try {
      const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-unified-exec-box-')));
      const root = PathUri.fromNativePath(dir, 'posix').toString();
      const sandbox = FileSystemSandboxContext.parse({
        permissions: {
          type: 'managed',
          network: 'restricted',
          file_system: {
            type: 'restricted',
            entries: [
              { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
              { path: { type: 'path', path: root }, access: 'write' },
            ],
          },
        },
        cwd: root,
        windowsSandboxLevel: 'disabled',
      });
      const made = harness({ sandbox, sandboxed: true });
      const inside = await made.call('exec_command', { cmd: `echo made > ${path.join(made.dir, 'inside.txt')}` });
      // The harness's own scratch dir is not writable to the sandbox; only `dir` is.
      expect(inside.text).toContain('Process exited with code 1');
      const allowed = await made.call('exec_command', { cmd: `echo made > ${path.join(dir, 'inside.txt')}` });
      expect(allowed.text).toContain('Process exited with code 0');
      expect(readFileSync(path.join(dir, 'inside.txt'), 'utf8')).toBe('made\n');
      const denied = await made.call('exec_command', { cmd: `echo escaped > ${path.join(outside, 'escape.txt')}` });
      expect(denied.success).toBe(false);
      expect(denied.text).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(path.join(outside, 'escape.txt'))).toBe(false);
      expect(made.events.find((event) => event.type === 'begin')).toMatchObject({ sandboxType: 'linuxSeccomp' });
      expect(made.events.filter((event) => event.type === 'end').at(-1)).toMatchObject({ type: 'end', sandboxDenied: true });
      rmSync(dir, { recursive: true, force: true });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
