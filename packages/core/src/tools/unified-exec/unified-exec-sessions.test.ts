import type { ExecutorProcesses, ProcessEvent } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { UnifiedExecError } from './unified-exec-error.js';
import { execYieldTime, resolveWorkdir, writeYieldTime } from './request-bounds.js';
import { UnifiedExecSessions, type UnifiedExecEvent } from './unified-exec-sessions.js';

describe('yield times', () => {
  it('defaults exec_command to 10 s and clamps it to [250 ms, 30 s]', () => {
    expect(execYieldTime(undefined)).toBe(10_000);
    expect(execYieldTime(null)).toBe(10_000);
    expect(execYieldTime(10)).toBe(250);
    expect(execYieldTime(120_000)).toBe(30_000);
    expect(execYieldTime(1234.9)).toBe(1234);
  });

  it('defaults write_stdin to 250 ms; a poll waits between 5 s and 300 s', () => {
    expect(writeYieldTime(undefined, false)).toBe(250);
    expect(writeYieldTime(100_000, false)).toBe(30_000);
    expect(writeYieldTime(undefined, true)).toBe(5_000);
    expect(writeYieldTime(10_000, true)).toBe(10_000);
    expect(writeYieldTime(1_000_000, true)).toBe(300_000);
  });
});

describe('resolveWorkdir', () => {
  const cwd = PathUri.fromNativePath('/repo', 'posix');

  it('uses the turn cwd, a path relative to it, or an absolute path', () => {
    expect(resolveWorkdir(cwd, undefined).toString()).toBe('file:///repo');
    expect(resolveWorkdir(cwd, 'src/lib').toString()).toBe('file:///repo/src/lib');
    expect(resolveWorkdir(cwd, '/tmp').toString()).toBe('file:///tmp');
  });

  it('rejects a workdir that climbs above the root', () => {
    expect(() => resolveWorkdir(cwd, '../../..')).toThrow(expect.objectContaining({ code: 'InvalidWorkdir' }));
  });
});

describe('an executor that goes away', () => {
  /** Processes that start anything and report whatever the test pushes. */
  function fakeProcesses(): { processes: ExecutorProcesses; push(event: ProcessEvent): void; started: string[] } {
    const listeners = new Set<(event: ProcessEvent) => void>();
    const started: string[] = [];
    const gone = () => Promise.reject(new Error('the executor is gone'));
    return {
      started,
      push: (event) => listeners.forEach((listener) => listener(event)),
      processes: {
        start: (params) => {
          started.push(params.processId);
          return Promise.resolve({ processId: params.processId, sandboxType: 'none' });
        },
        read: gone,
        write: gone,
        signal: gone,
        terminate: gone,
        resize: gone,
        subscribe: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close: () => Promise.resolve(),
      },
    };
  }

  it('fails the running exec_command with the reason and what it printed, and ends its item', async () => {
    const fake = fakeProcesses();
    const events: UnifiedExecEvent[] = [];
    const sessions = new UnifiedExecSessions({ processes: fake.processes, env: {}, defaultShell: '/bin/sh', onEvent: (event) => events.push(event), monotonicMs: () => performance.now() });
    const running = sessions.execCommand({ callId: 'call', cmd: 'sleep 30', cwd: PathUri.fromNativePath('/repo', 'posix'), sandbox: null, yieldTimeMs: 30_000 });
    await expect.poll(() => fake.started.length).toBe(1);
    const processId = fake.started[0]!;
    fake.push({ type: 'output', processId, seq: 1, stream: 'stdout', chunk: new TextEncoder().encode('half\n') });
    fake.push({ type: 'lost', processId, reason: 'environment `far`: the exec-server connection closed' });
    const error = (await running.catch((caught: unknown) => caught)) as UnifiedExecError;
    expect(error).toBeInstanceOf(UnifiedExecError);
    expect(error.code).toBe('ExecutorLost');
    expect(error.message).toBe(
      "the command's executor went away before it finished (environment `far`: the exec-server connection closed); whether it still runs there is unknown\nOutput before that:\nhalf\n",
    );
    expect(events.map((event) => event.type)).toEqual(['begin', 'outputDelta', 'end']);
    expect(events[2]).toMatchObject({ exitCode: -1, aggregatedOutput: 'half\n' });
    expect(sessions.liveSessionIds()).toEqual([]);
  });

  // A remote executor can report a fast command's first output before its answer to process/start
  // reaches us: the delta must still follow the begin, or no item would take it.
  it('holds output that arrives before the start is answered until the begin event has gone out', async () => {
    const fake = fakeProcesses();
    const answer = fake.processes.start.bind(fake.processes);
    fake.processes.start = async (params) => {
      const started = await answer(params);
      fake.push({ type: 'output', processId: params.processId, seq: 1, stream: 'stdout', chunk: new TextEncoder().encode('early\n') });
      return started;
    };
    const events: UnifiedExecEvent[] = [];
    const sessions = new UnifiedExecSessions({ processes: fake.processes, env: {}, defaultShell: '/bin/sh', onEvent: (event) => events.push(event), monotonicMs: () => performance.now() });
    const running = sessions.execCommand({ callId: 'call', cmd: 'echo early; sleep 30', cwd: PathUri.fromNativePath('/repo', 'posix'), sandbox: null, yieldTimeMs: 30_000 });
    await expect.poll(() => events.length).toBe(2);
    expect(events.map((event) => event.type)).toEqual(['begin', 'outputDelta']);
    fake.push({ type: 'output', processId: fake.started[0]!, seq: 2, stream: 'stdout', chunk: new TextEncoder().encode('later\n') });
    expect(events.map((event) => event.type)).toEqual(['begin', 'outputDelta', 'outputDelta']);
    fake.push({ type: 'lost', processId: fake.started[0]!, reason: 'the test is over' });
    await running.catch(() => undefined);
  });
});
