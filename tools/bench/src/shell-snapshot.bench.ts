// Shell snapshots: command start latency (exec_command → exit, `true`) with and without
// `shell_snapshot`, through UnifiedExecSessions and real bash processes, for two homes: an empty one
// (a login shell's own cost) and one whose profile does what real ones do (a few command
// substitutions and sourced files, as version managers and prompt tools add).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UnifiedExecSessions } from '@skein/core';
import { LocalProcesses } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';

const SAMPLES = 60;
const WARMUP = 5;

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-shell-snapshot-bench-')));
const emptyHome = path.join(root, 'empty');
const busyHome = path.join(root, 'busy');
mkdirSync(emptyHome);
mkdirSync(path.join(busyHome, '.profile.d'), { recursive: true });
for (let index = 0; index < 5; index++) writeFileSync(path.join(busyHome, '.profile.d', `${index}.sh`), `export TOOL_${index}_HOME="$HOME/.tool${index}"\nexport PATH="$TOOL_${index}_HOME/bin:$PATH"\n`);
writeFileSync(
  path.join(busyHome, '.bash_profile'),
  ['for file in "$HOME"/.profile.d/*.sh; do . "$file"; done', 'export OS_NAME="$(uname -s)"', 'export USER_ID="$(id -u)"', 'export HOST_NAME="$(hostname)"', 'export GIT_VERSION="$(git --version 2>/dev/null)"'].join('\n'),
);

const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
const range = (samples: readonly number[]) => `${Math.min(...samples).toFixed(2)}–${Math.max(...samples).toFixed(2)}`;

async function measure(home: string, shellSnapshots: boolean): Promise<number[]> {
  const processes = new LocalProcesses();
  const sessions = new UnifiedExecSessions({ processes, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, defaultShell: '/bin/bash', shellSnapshots, monotonicMs: () => performance.now() });
  const cwd = PathUri.fromNativePath(home, 'posix');
  const samples: number[] = [];
  try {
    for (let run = 0; run < WARMUP + SAMPLES; run++) {
      const start = performance.now();
      const response = await sessions.execCommand({ callId: `call_${run}`, cmd: 'true', cwd, sandbox: null, yieldTimeMs: 10_000 });
      if (response.exitCode !== 0) throw new Error(`\`true\` exited ${response.exitCode}`);
      // The first command of the snapshot run pays for the capture: it is a warm-up sample.
      if (run >= WARMUP) samples.push(performance.now() - start);
    }
  } finally {
    await sessions.closeAll();
    await processes.close();
  }
  return samples;
}

try {
  console.log(`exec_command "true" → exit through UnifiedExecSessions (LocalProcesses, no sandbox), ${SAMPLES} after ${WARMUP} warm-up; ms`);
  console.log('| home | without snapshot, median (min–max) | with snapshot, median (min–max) | saved per command |');
  console.log('|---|---|---|---|');
  for (const [label, home] of [['empty profile', emptyHome], ['profile with 5 sourced files and 4 command substitutions', busyHome]] as const) {
    const without = await measure(home, false);
    const withSnapshot = await measure(home, true);
    console.log(`| ${label} | ${median(without).toFixed(2)} (${range(without)}) | ${median(withSnapshot).toFixed(2)} (${range(withSnapshot)}) | ${(median(without) - median(withSnapshot)).toFixed(2)} |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
