import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestCapabilityError, probeOncePerRun, probeSandboxForTests, testRunDir, type ProbedCapability } from './probe-once-per-run.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-probe-once-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A probe that counts its runs and answers `answer` after a tick. */
function countingProbe<C extends ProbedCapability>(answer: C): { probe: () => Promise<C>; runs: () => number } {
  let runs = 0;
  return {
    probe: async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer;
    },
    runs: () => runs,
  };
}

const AVAILABLE = { available: true, bwrapPath: '/usr/bin/bwrap' } as const;
const DENIED = { available: false, code: 'UserNamespacesDenied', reason: 'bwrap cannot create the user namespace', remedy: 'Allow user namespaces.' } as const;

describe('probeOncePerRun', () => {
  it('probes on every call when no run id is set', async () => {
    const { probe, runs } = countingProbe(AVAILABLE);
    await probeOncePerRun('sandbox', probe, { env: {}, dir });
    await probeOncePerRun('sandbox', probe, { env: {}, dir });
    expect(runs()).toBe(2);
  });

  it('probes once for all the callers of a run, concurrent or later, and shares the answer', async () => {
    const { probe, runs } = countingProbe(AVAILABLE);
    const env = { SKEIN_TEST_RUN_ID: 'run-1' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => probeOncePerRun('sandbox', probe, { env, dir })));
    expect(answers).toEqual(Array.from({ length: 5 }, () => AVAILABLE));
    expect(await probeOncePerRun('sandbox', probe, { env, dir })).toEqual(AVAILABLE);
    expect(runs()).toBe(1);
    // Another run probes afresh.
    await probeOncePerRun('sandbox', probe, { env: { SKEIN_TEST_RUN_ID: 'run-2' }, dir });
    expect(runs()).toBe(2);
  });

  it('probes itself when the process that claimed the probe never answers', async () => {
    const runDir = testRunDir('abandoned', dir);
    mkdirSync(runDir);
    writeFileSync(path.join(runDir, 'sandbox.json.probing'), '');
    const { probe, runs } = countingProbe(DENIED);
    expect(await probeOncePerRun('sandbox', probe, { env: { SKEIN_TEST_RUN_ID: 'abandoned' }, dir, waitMs: 300 })).toEqual(DENIED);
    expect(runs()).toBe(1);
  });

  it('lets the next caller probe when the claiming probe throws', async () => {
    const env = { SKEIN_TEST_RUN_ID: 'failing' };
    await expect(probeOncePerRun('sandbox', () => Promise.reject(new Error('spawn failed')), { env, dir })).rejects.toThrow('spawn failed');
    expect(await probeOncePerRun('sandbox', () => Promise.resolve(AVAILABLE), { env, dir, waitMs: 0 })).toEqual(AVAILABLE);
  });

  it('refuses a run id that is not a plain file name', () => {
    expect(() => testRunDir('../elsewhere', dir)).toThrow(TypeError);
  });
});

describe('probeSandboxForTests', () => {
  it('runs the tests when the sandbox is available', async () => {
    expect(await probeSandboxForTests(() => Promise.resolve(AVAILABLE), { env: {}, dir })).toEqual({ capability: AVAILABLE, skip: '' });
  });

  it('skips with the code and reason in the title when the sandbox is missing', async () => {
    expect(await probeSandboxForTests(() => Promise.resolve(DENIED), { env: {}, dir })).toEqual({
      capability: DENIED,
      skip: ' (skipped: bubblewrap unavailable (UserNamespacesDenied): bwrap cannot create the user namespace)',
    });
  });

  it('fails, with the reason and the remedy, when the run requires the sandbox', async () => {
    const attempt = probeSandboxForTests(() => Promise.resolve(DENIED), { env: { SKEIN_REQUIRE_SANDBOX: '1' }, dir });
    await expect(attempt).rejects.toBeInstanceOf(TestCapabilityError);
    await expect(attempt).rejects.toThrow(
      'SKEIN_REQUIRE_SANDBOX=1 requires the sandbox, but bubblewrap unavailable (UserNamespacesDenied): bwrap cannot create the user namespace. Allow user namespaces.',
    );
  });
});
