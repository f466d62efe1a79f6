// What file checkpoints cost on a 10,000-file repository: the snapshot before a turn's first write
// (clean tree, and with 100 changed files), the snapshot after, a restore of 100 files, and the disk
// 100 checkpoints add to the repository. Each snapshot is one `sh` running git plumbing through the
// environment's process runner, as a turn takes it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkpointSettings } from '@skein/config';
import { captureCommand, GitCheckpoints, shellRunner } from '@skein/core';
import { LocalProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';

const FILES = 10_000;
const ROUNDS = 20;
const scratch = mkdtempSync(path.join(tmpdir(), 'skein-checkpoints-bench-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: scratch, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
const processes = new LocalProcesses();
const settings = checkpointSettings(undefined, undefined);
const checkpoints = new GitCheckpoints(
  shellRunner((argv, options) => captureCommand({ processes, cwd: PathUri.fromNativePath(scratch, 'posix'), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratch }, sandbox: null, now: () => performance.now() }, argv, options)),
  { shadowDir: '' },
);

function fileAt(index: number): string {
  return path.join(scratch, 'src', String(Math.floor(index / 100)), `${index % 100}.ts`);
}

async function snapshot(ref: string): Promise<{ commit: string; ms: number }> {
  const started = performance.now();
  const taken = await checkpoints.snapshot(ref, settings, { message: 'bench', prunePrefix: '', nowMs: Date.now() });
  if (!('commit' in taken)) throw new Error(taken.unavailable);
  return { commit: taken.commit, ms: performance.now() - started };
}

function report(label: string, samples: number[]): void {
  samples.sort((left, right) => left - right);
  const at = (quantile: number) => samples[Math.min(samples.length - 1, Math.floor(quantile * samples.length))]!.toFixed(1);
  console.log(`${label.padEnd(40)} p50 ${at(0.5).padStart(7)} ms   p90 ${at(0.9).padStart(7)} ms   (${samples.length} runs)`);
}

function repositoryBytes(): number {
  const counts = Object.fromEntries(git('count-objects', '-v').trim().split('\n').map((line) => line.split(': ') as [string, string]));
  return (Number(counts['size']) + Number(counts['size-pack'])) * 1024;
}

try {
  git('init', '-q', '-b', 'main');
  git('config', 'gc.auto', '0');
  for (let index = 0; index < FILES; index += 1) {
    if (index % 100 === 0) mkdirSync(path.dirname(fileAt(index)), { recursive: true });
    writeFileSync(fileAt(index), `export const value = ${index};\n`);
  }
  git('add', '.');
  git('commit', '-qm', 'bench');
  console.log(`Checkpoints of a ${FILES}-file repository (git ${git('--version').trim().split(' ').at(-1)}):`);

  const clean: number[] = [];
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    const { ms } = await snapshot(`refs/skein/checkpoints/bench/clean-${round}/before`);
    if (round >= 2) clean.push(ms);
  }
  report('snapshot, clean tree', clean);

  const dirty: number[] = [];
  const restores: number[] = [];
  const before = repositoryBytes();
  for (let round = 0; round < ROUNDS; round += 1) {
    const first = await snapshot(`refs/skein/checkpoints/bench/turn-${round}/before`);
    for (let change = 0; change < 100; change += 1) writeFileSync(fileAt((round * 100 + change * 97) % FILES), `export const value = 'round ${round}';\n`);
    const second = await snapshot(`refs/skein/checkpoints/bench/turn-${round}/after`);
    dirty.push(second.ms);
    const started = performance.now();
    const changes = await checkpoints.changes(second.commit, first.commit);
    await checkpoints.restore(first.commit, [...changes.keys()], []);
    restores.push(performance.now() - started);
  }
  report('snapshot, 100 files changed', dirty);
  report('restore of 100 files (diff + write)', restores);

  // 100 turns' checkpoints (before and after), each turn changing 100 files.
  const grown = repositoryBytes();
  for (let round = ROUNDS; round < 100; round += 1) {
    await snapshot(`refs/skein/checkpoints/bench/turn-${round}/before`);
    for (let change = 0; change < 100; change += 1) writeFileSync(fileAt((round * 100 + change * 97) % FILES), `export const value = 'round ${round}';\n`);
    await snapshot(`refs/skein/checkpoints/bench/turn-${round}/after`);
  }
  const after = repositoryBytes();
  console.log(`disk added by 100 turns of checkpoints    ${((after - before) / 1024 / 1024).toFixed(1)} MiB loose (${((grown - before) / 1024 / 1024).toFixed(1)} MiB after the first ${ROUNDS}); a \`git gc\` packs them`);
} finally {
  await processes.close();
  rmSync(scratch, { recursive: true, force: true });
}
