// The one test command (`pnpm test`): build, typecheck, lint and test every package through turbo,
// then print the workspace-wide summary. Stale reports are removed first so that a package whose
// tests did not run cannot contribute an old result.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { packageDirs } from './workspace-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
for (const dir of packageDirs(root)) rmSync(path.join(dir, '.vitest'), { recursive: true, force: true });

const turbo = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', 'typecheck', 'lint', 'test', '--continue', '--output-logs=new-only', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
const summary = spawnSync(process.execPath, [path.join(root, 'scripts', 'test-summary.mjs')], { cwd: root, stdio: 'inherit' });

if (turbo.error !== undefined) console.error(`could not start turbo: ${turbo.error.message}`);
process.exitCode = turbo.status === 0 && summary.status === 0 ? 0 : 1;
