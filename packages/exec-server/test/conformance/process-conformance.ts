// The process half of the conformance suite: start, output events, reads, stdin, PTYs, signals,
// termination of whole process trees, errors, output caps and sandboxed commands.
import { createServer, type Server } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessError, type ProcessErrorCode, type StartProcessParams } from '../../src/index.js';
import { ProcessRecorder, SANDBOX_SKIP, Scratch, TEST_ENV, eventually, pidAlive, sandboxContext, type ConformanceTarget, type ExecutorUnderTest } from './harness.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (chunks: readonly { chunk: Uint8Array }[]): string => Buffer.concat(chunks.map((chunk) => chunk.chunk)).toString('utf8');

async function failsWith(promise: Promise<unknown>, code: ProcessErrorCode): Promise<ProcessError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, `expected ProcessError ${code}`).toBeInstanceOf(ProcessError);
  expect((error as ProcessError).code).toBe(code);
  return error as ProcessError;
}

/** Registers the process conformance tests for `target`. */
export function describeProcessConformance(target: ConformanceTarget): void {
  describe(`ExecutorProcesses conformance: ${target.name}`, () => {
    let executor: ExecutorUnderTest;
    let box: Scratch;
    let counter = 0;
    beforeEach(async () => {
      executor = await target.open();
      box = new Scratch();
    });
    afterEach(async () => {
      await executor.close();
      box.dispose();
    });

    /** Starts a process with defaults and records its events from the start. */
    const run = async (argv: string[], extra: Partial<StartProcessParams> = {}) => {
      counter += 1;
      const processId = `p${counter}`;
      const recorder = new ProcessRecorder(executor.processes, processId);
      const started = await executor.processes.start({ processId, argv, cwd: box.uri(), env: TEST_ENV, tty: false, ...extra });
      return { processId, recorder, started };
    };

    it('runs a command and reports output, exit and close in sequence order', async () => {
      const { recorder, started } = await run(['sh', '-c', 'echo out; echo err >&2; exit 3']);
      expect(started.sandboxType).toBe('none');
      await recorder.closed();
      expect(recorder.text('stdout')).toBe('out\n');
      expect(recorder.text('stderr')).toBe('err\n');
      const kinds = recorder.events.map((event) => event.type);
      expect(kinds.slice(-2)).toEqual(['exited', 'closed']);
      expect(kinds.slice(0, -2).every((kind) => kind === 'output')).toBe(true);
      expect(recorder.events.map((event) => ('seq' in event ? event.seq : null))).toEqual(recorder.events.map((_event, index) => index + 1));
      expect(recorder.exit()).toMatchObject({ exitCode: 3, signal: null, sandboxDenied: false });
    });

    it('keeps output for reads after the exit, filtered by afterSeq and bounded by maxBytes', async () => {
      const { processId, recorder } = await run(['sh', '-c', 'printf one; sleep 0.05; printf two; sleep 0.05; printf three']);
      await recorder.closed();
      const all = await executor.processes.read(processId);
      expect(decode(all.chunks)).toBe('onetwothree');
      expect(all).toMatchObject({ exited: true, exitCode: 0, signal: null, closed: true, failure: null, sandboxDenied: false });
      expect(all.nextSeq).toBe(recorder.events.length + 1);
      const first = all.chunks[0]!;
      const rest = await executor.processes.read(processId, { afterSeq: first.seq });
      expect(decode(rest.chunks)).toBe(decode(all.chunks).slice(first.chunk.byteLength));
      const limited = await executor.processes.read(processId, { maxBytes: 1 });
      expect(limited.chunks).toHaveLength(1);
      expect(limited.nextSeq).toBe(first.seq + 1);
      expect((await executor.processes.read(processId, { afterSeq: all.nextSeq - 1 })).chunks).toEqual([]);
    });

    it('waits for output when asked to', async () => {
      const { processId } = await run(['sh', '-c', 'sleep 0.2; echo late; sleep 5']);
      const answer = await executor.processes.read(processId, { afterSeq: 0, waitMs: 10_000 });
      expect(decode(answer.chunks)).toBe('late\n');
      expect(answer.exited).toBe(false);
      await executor.processes.terminate(processId);
    });

    it('feeds stdin when it is piped, and reports closed stdin otherwise', async () => {
      const piped = await run(['cat'], { pipeStdin: true });
      expect(await executor.processes.write(piped.processId, bytes('hello\n'))).toBe('accepted');
      await eventually(() => piped.recorder.text('stdout') === 'hello\n');
      await executor.processes.terminate(piped.processId);
      const closedStdin = await run(['cat']);
      await closedStdin.recorder.closed();
      expect(closedStdin.recorder.exit().exitCode).toBe(0);
      expect(await executor.processes.write(closedStdin.processId, bytes('late'))).toBe('stdinClosed');
      expect(await executor.processes.write('never-started', bytes('x'))).toBe('unknownProcess');
    });

    it('runs under a terminal: pty output, writable stdin, a default size and resizing', async () => {
      const { processId, recorder } = await run(['sh', '-c', 'tty; stty size; read line; stty size; echo "got $line"'], { tty: true });
      await eventually(() => /24 80\r\n/.test(recorder.text('pty')));
      await executor.processes.resize(processId, { cols: 132, rows: 40 });
      expect(await executor.processes.write(processId, bytes('typed\r'))).toBe('accepted');
      await recorder.closed();
      const output = recorder.text('pty');
      expect(output).toMatch(/^\/dev\/pts\/\d+\r\n24 80\r\n/);
      expect(output).toContain('40 132\r\n');
      expect(output).toContain('got typed\r\n');
      expect(recorder.events.every((event) => event.type !== 'output' || event.stream === 'pty')).toBe(true);
      expect(recorder.exit().exitCode).toBe(0);
    });

    it('starts a terminal at the requested size and refuses to resize a process without one', async () => {
      const sized = await run(['stty', 'size'], { tty: true, size: { cols: 100, rows: 30 } });
      await sized.recorder.closed();
      expect(sized.recorder.text('pty')).toBe('30 100\r\n');
      const plain = await run(['sleep', '5']);
      await failsWith(executor.processes.resize(plain.processId, { cols: 10, rows: 10 }), 'NotATerminal');
      await executor.processes.terminate(plain.processId);
    });

    it('interrupts with SIGINT (exit 130) and terminates with SIGKILL (exit 137)', async () => {
      const interrupted = await run(['sleep', '30']);
      await executor.processes.signal(interrupted.processId, 'interrupt');
      await interrupted.recorder.closed();
      expect(interrupted.recorder.exit()).toMatchObject({ exitCode: 130, signal: 'SIGINT' });
      const killed = await run(['sleep', '30']);
      expect(await executor.processes.terminate(killed.processId)).toEqual({ running: true });
      await killed.recorder.closed();
      expect(killed.recorder.exit()).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
      expect(await executor.processes.read(killed.processId)).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
      expect(await executor.processes.terminate(killed.processId)).toEqual({ running: false });
      expect(await executor.processes.terminate('never-started')).toEqual({ running: false });
      await executor.processes.signal('never-started', 'interrupt');
    });

    it('kills the whole process tree, including children that left the process group', async () => {
      // The grandchild starts its own session, as a daemonizing command or a sandbox would.
      const { processId, recorder } = await run(['sh', '-c', 'setsid sleep 300 & echo $!; sleep 300']);
      await eventually(() => /^\d+\n/.test(recorder.text('stdout')));
      const grandchild = Number(recorder.text('stdout').trim());
      expect(pidAlive(grandchild)).toBe(true);
      await executor.processes.terminate(processId);
      await recorder.closed();
      await eventually(() => !pidAlive(grandchild));
    });

    it('gives the command exactly the environment it was started with, arg0 and the cwd', async () => {
      const env = await run(['sh', '-c', 'env | sort; pwd'], { env: { ...TEST_ENV, ONLY: 'this' } });
      await env.recorder.closed();
      const lines = env.recorder.text('stdout').trim().split('\n');
      expect(lines).toContain('ONLY=this');
      expect(lines.some((line) => line.startsWith('HOME='))).toBe(false);
      expect(lines.at(-1)).toBe(box.dir);
      const named = await run(['sh', '-c', 'echo $0'], { arg0: 'custom-name' });
      await named.recorder.closed();
      expect(named.recorder.text('stdout')).toBe('custom-name\n');
    });

    it('keeps only the newest output within the output byte cap', async () => {
      const { processId, recorder } = await run(['sh', '-c', 'i=0; while [ $i -lt 50 ]; do printf "%04d......" $i; i=$((i+1)); done'], { outputByteCap: 100 });
      await recorder.closed();
      expect(recorder.text('stdout')).toHaveLength(500);
      const kept = decode((await executor.processes.read(processId)).chunks);
      expect(kept.length).toBeLessThanOrEqual(100);
      expect(kept.endsWith('0049......')).toBe(true);
    });

    it('refuses empty argv, duplicate ids, missing programs and working directories, and unknown reads', async () => {
      await failsWith(executor.processes.start({ processId: 'e1', argv: [], cwd: box.uri(), env: TEST_ENV, tty: false }), 'InvalidArgument');
      const first = await run(['true']);
      await first.recorder.closed();
      await failsWith(executor.processes.start({ processId: first.processId, argv: ['true'], cwd: box.uri(), env: TEST_ENV, tty: false }), 'ProcessExists');
      const missing = await failsWith(executor.processes.start({ processId: 'e2', argv: ['no-such-program-here'], cwd: box.uri(), env: TEST_ENV, tty: false }), 'SpawnFailed');
      expect(missing.errno).toBe('ENOENT');
      const noCwd = await failsWith(executor.processes.start({ processId: 'e3', argv: ['true'], cwd: box.uri('missing'), env: TEST_ENV, tty: false }), 'SpawnFailed');
      expect(noCwd.errno).toBe('ENOENT');
      await failsWith(executor.processes.start({ processId: 'e4', argv: ['no-such-program-here'], cwd: box.uri(), env: TEST_ENV, tty: true }), 'SpawnFailed');
      await failsWith(executor.processes.read('e2'), 'UnknownProcess');
    });

    it('leaves nothing running once closed', async () => {
      const pids: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        const { recorder } = await run(['sh', '-c', 'echo $$; exec sleep 300'], { tty: index === 2 });
        await eventually(() => /\d+/.test(recorder.text()));
        pids.push(Number(/\d+/.exec(recorder.text())![0]));
      }
      expect(pids.every(pidAlive)).toBe(true);
      await executor.processes.close();
      await eventually(() => pids.every((pid) => !pidAlive(pid)));
    });

    describe.skipIf(SANDBOX_SKIP !== '')(`sandboxed processes${SANDBOX_SKIP}`, () => {
      let outside: Scratch;
      let listener: Server;
      let port = 0;
      beforeEach(async () => {
        outside = new Scratch();
        listener = createServer((socket) => socket.end('reached\n'));
        await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
        port = (listener.address() as { port: number }).port;
      });
      afterEach(async () => {
        outside.dispose();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      });

      it('writes inside the workspace and is denied outside it, reporting the denial', async () => {
        const sandbox = sandboxContext(box.uri());
        const inside = await run(['sh', '-c', 'echo made > inside.txt'], { sandbox });
        expect(inside.started.sandboxType).toBe('linuxSeccomp');
        await inside.recorder.closed();
        expect(inside.recorder.exit()).toMatchObject({ exitCode: 0, sandboxDenied: false });
        expect(readFileSync(box.path('inside.txt'), 'utf8')).toBe('made\n');
        const escape = await run(['sh', '-c', `echo escaped > ${outside.path('escape.txt')}`], { sandbox });
        await escape.recorder.closed();
        expect(escape.recorder.exit().exitCode).not.toBe(0);
        expect(escape.recorder.exit().sandboxDenied).toBe(true);
        expect(escape.recorder.text('stderr')).toMatch(/Read-only file system/);
        expect(existsSync(outside.path('escape.txt'))).toBe(false);
        const read = await executor.processes.read(escape.processId);
        expect(read.sandboxDenied).toBe(true);
      });

      it('confines a terminal process the same way', async () => {
        const tty = await run(['sh', '-c', `echo escaped > ${outside.path('tty.txt')}; echo done`], { sandbox: sandboxContext(box.uri()), tty: true });
        await tty.recorder.closed();
        expect(tty.recorder.text('pty')).toMatch(/Read-only file system/);
        expect(existsSync(outside.path('tty.txt'))).toBe(false);
      });

      it('has no network unless the policy enables it', async () => {
        const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
        const denied = await run(['bash', '-c', probe], { sandbox: sandboxContext(box.uri()) });
        await denied.recorder.closed();
        expect(denied.recorder.exit().exitCode).not.toBe(0);
        expect(denied.recorder.text('stdout')).toBe('');
        const allowed = await run(['bash', '-c', probe], { sandbox: sandboxContext(box.uri(), [], 'enabled') });
        await allowed.recorder.closed();
        expect(allowed.recorder.text('stdout')).toBe('reached\n');
      });
    });
  });
}
