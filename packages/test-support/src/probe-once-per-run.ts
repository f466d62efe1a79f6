// Machine capabilities (bubblewrap, say) probed once per test run rather than once per test file: the
// first file of a run probes and leaves the answer under the OS temp dir, where every other file of
// the run, in any package or worker, reads it. And where the run requires the sandbox (CI), a machine
// without one fails the tests that need it instead of skipping them.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Names the test run (`scripts/test.mjs` sets it); without it every call probes. */
export const TEST_RUN_ID_ENV = 'SKEIN_TEST_RUN_ID';
/** `1` (CI sets it) makes a missing sandbox a test failure rather than a skip. */
export const REQUIRE_SANDBOX_ENV = 'SKEIN_REQUIRE_SANDBOX';
/** How long a file waits for the probe another process of the run is running, before probing itself. */
export const DEFAULT_PROBE_WAIT_MS = 180_000;
const POLL_MS = 100;
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** What tests need of a probe's answer: whether the capability is there, and if not, why. */
export interface ProbedCapability {
  readonly available: boolean;
  readonly code?: string;
  readonly reason?: string;
  readonly remedy?: string;
}

/** Options of {@link probeOncePerRun} and {@link probeSandboxForTests}. */
export interface ProbeOncePerRunOptions {
  /** Where the run id and the requirement are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Parent of the run's directory; default the OS temp dir. */
  readonly dir?: string;
  /** Default {@link DEFAULT_PROBE_WAIT_MS}. */
  readonly waitMs?: number;
}

/** Why a test file cannot run as the run requires. */
export class TestCapabilityError extends Error {
  override readonly name = 'TestCapabilityError';
  readonly code = 'SandboxRequired';
}

/** The directory holding run `runId`'s shared answers; `scripts/test.mjs` removes it after the run. */
export function testRunDir(runId: string, dir: string = tmpdir()): string {
  if (!SAFE_NAME.test(runId)) throw new TypeError(`${TEST_RUN_ID_ENV} must be letters, digits, '.', '_' or '-', not ${JSON.stringify(runId)}`);
  return path.join(dir, `skein-test-run-${runId}`);
}

/**
 * Runs `probe` once per test run and shares its (JSON) answer under `name`: the first caller of the
 * run claims the probe, the others wait for its answer. Without a run id it simply probes.
 * @example
 * const capability = await probeOncePerRun('bubblewrap', () => probeSandbox({ env: process.env }));
 */
export async function probeOncePerRun<C extends ProbedCapability>(name: string, probe: () => Promise<C>, options: ProbeOncePerRunOptions = {}): Promise<C> {
  const runId = (options.env ?? process.env)[TEST_RUN_ID_ENV];
  if (runId === undefined || runId === '') return probe();
  if (!SAFE_NAME.test(name)) throw new TypeError(`probe name must be letters, digits, '.', '_' or '-', not ${JSON.stringify(name)}`);
  const runDir = testRunDir(runId, options.dir);
  mkdirSync(runDir, { recursive: true });
  const answerFile = path.join(runDir, `${name}.json`);
  const claimFile = `${answerFile}.probing`;
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_PROBE_WAIT_MS);
  for (;;) {
    const answer = readAnswer<C>(answerFile);
    if (answer !== undefined) return answer;
    if (claim(claimFile)) {
      try {
        const capability = await probe();
        // Written whole, then renamed, so a reader never sees half an answer.
        const partial = `${answerFile}.${process.pid}.tmp`;
        writeFileSync(partial, JSON.stringify(capability));
        renameSync(partial, answerFile);
        return capability;
      } catch (error) {
        // Let the next file of the run try rather than wait for an answer that will not come.
        rmSync(claimFile, { force: true });
        throw error;
      }
    }
    // Someone else probes; if that process died, probe here rather than skip or hang.
    if (Date.now() >= deadline) return probe();
    await sleep(POLL_MS);
  }
}

/**
 * Probes the sandbox once per run (see {@link probeOncePerRun}) and says whether tests that need it
 * run: `skip` is '' when they do, else a title suffix ` (skipped: bubblewrap unavailable: …)` to
 * append to the skipped test's or suite's title. With `SKEIN_REQUIRE_SANDBOX=1` an unavailable
 * sandbox throws instead, so the test file fails with the probe's reason and remedy.
 * @example
 * const { capability, skip } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));
 * describe.skipIf(skip !== '')(`escape attempts under bubblewrap${skip}`, () => { … });
 */
export async function probeSandboxForTests<C extends ProbedCapability>(probe: () => Promise<C>, options: ProbeOncePerRunOptions = {}): Promise<{ readonly capability: C; readonly skip: string }> {
  const capability = await probeOncePerRun('sandbox', probe, options);
  if (capability.available) return { capability, skip: '' };
  const why = `bubblewrap unavailable${capability.code === undefined ? '' : ` (${capability.code})`}: ${capability.reason ?? 'the probe gave no reason'}`;
  if ((options.env ?? process.env)[REQUIRE_SANDBOX_ENV] === '1') {
    throw new TestCapabilityError(`${REQUIRE_SANDBOX_ENV}=1 requires the sandbox, but ${why}.${capability.remedy === undefined ? '' : ` ${capability.remedy}`}`);
  }
  return { capability, skip: ` (skipped: ${why})` };
}

function claim(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readAnswer<C>(file: string): C | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as C;
}

/** The part of vitest's test context {@link skipWithReason} uses. */
export interface SkippableTestContext {
  readonly task: { readonly meta: object };
  skip(note?: string): never;
}

/**
 * Skips the running test with `reason`, also kept in the test's `meta.skipReason`, where the JSON
 * report carries it to the run's summary (a title cannot say why a test skipped itself at run time).
 * @example
 * if (!box.makeImmutable('locked')) skipWithReason(context, 'the scratch filesystem does not support chattr +i');
 */
export function skipWithReason(context: SkippableTestContext, reason: string): never {
  (context.task.meta as { skipReason?: string }).skipReason = reason;
  return context.skip(reason);
}
