// The one test command (`pnpm test`): build, typecheck, lint, check the public API reports
// (api-extractor) and test every package through turbo, then print the workspace-wide summary.
// Stale reports are removed first so that a package whose tests did not run cannot contribute an
// old result. The run gets an id (SKEIN_TEST_RUN_ID), under
// which test files share what they probe once per run (the sandbox, say); its directory goes at the end.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageDirs } from './workspace-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
for (const dir of packageDirs(root)) rmSync(path.join(dir, '.vitest'), { recursive: true, force: true });

const runId = randomUUID();
// The directory test-support's testRunDir() names for this id.
const runDir = path.join(tmpdir(), `skein-test-run-${runId}`);
const extraArgs = process.argv.slice(2);
const turbo = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', 'typecheck', 'lint', 'api', 'test', '--continue', '--output-logs=new-only', ...extraArgs],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SKEIN_TEST_RUN_ID: runId } },
);
rmSync(runDir, { recursive: true, force: true });
// Every package with tests must report, unless the arguments narrowed the run (a --filter, say).
const summaryArgs = extraArgs.length === 0 ? ['--expect-all'] : [];
const summary = spawnSync(process.execPath, [path.join(root, 'scripts', 'test-summary.mjs'), ...summaryArgs], { cwd: root, stdio: 'inherit' });

if (turbo.error !== undefined) console.error(`could not start turbo: ${turbo.error.message}`);
process.exitCode = turbo.status === 0 && summary.status === 0 ? 0 : 1;
