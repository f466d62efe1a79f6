// What lifecycle hooks add to each tool call: the PreToolUse engine run a call waits for, with 0, 1
// and 5 command hooks (each a `sh -c` process reading the event's JSON; the five run at once) and
// with one extension hook (in process). With no hook the tool-call path asks one map and moves on.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HookInput } from '@skein/extension-api';
import { HookEngine, type ConfiguredHook } from '@skein/hooks';

const ROUNDS = 40;
const WARMUP = 3;
const scratch = mkdtempSync(path.join(tmpdir(), 'skein-hooks-bench-'));
const script = path.join(scratch, 'allow.sh');
writeFileSync(script, '#!/bin/sh\ncat > /dev/null\nexit 0\n');
chmodSync(script, 0o755);

const hook = (displayOrder: number): ConfiguredHook => ({
  key: `${scratch}/config.toml:pre_tool_use:${displayOrder}:0`,
  event: 'preToolUse',
  matcher: 'Bash',
  handler: { type: 'command', command: script, async: false },
  timeoutSec: 60,
  statusMessage: null,
  source: 'user',
  sourcePath: `${scratch}/config.toml`,
  displayOrder,
  currentHash: 'sha256:bench',
  trustStatus: 'trusted',
  enabled: true,
  environmentId: null,
});

const input: HookInput = { session_id: 's', turn_id: 't', transcript_path: null, cwd: scratch, hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_1' };

async function measure(label: string, engine: HookEngine): Promise<void> {
  const signal = new AbortController().signal;
  const samples: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const started = performance.now();
    // What the tool-call path does: ask, and run only when something would.
    if (engine.handles('preToolUse', 'Bash')) await engine.run({ event: 'preToolUse', input, matchValue: 'Bash', runSuffix: 'call_1', cwd: scratch, signal });
    if (round >= WARMUP) samples.push(performance.now() - started);
  }
  samples.sort((left, right) => left - right);
  const at = (quantile: number) => samples[Math.min(samples.length - 1, Math.floor(quantile * samples.length))]!.toFixed(3);
  console.log(`${label.padEnd(32)} p50 ${at(0.5).padStart(9)} ms   p90 ${at(0.9).padStart(9)} ms   (${ROUNDS} calls)`);
}

try {
  console.log('Added latency per tool call (PreToolUse):');
  await measure('no hooks', new HookEngine({ hooks: [], env: process.env }));
  await measure('1 extension hook (in process)', new HookEngine({ hooks: [], env: process.env, contributed: [{ extensionId: 'bench', contributor: { event: 'preToolUse', matcher: 'Bash', run: () => undefined } }] }));
  await measure('1 command hook', new HookEngine({ hooks: [hook(0)], env: process.env }));
  await measure('5 command hooks (in parallel)', new HookEngine({ hooks: [0, 1, 2, 3, 4].map(hook), env: process.env }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
