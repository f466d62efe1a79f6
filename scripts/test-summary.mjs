// Sums the vitest JSON reports of every package into one line, `N passed, N failed, N skipped`,
// because vitest's own summary is per package. Exits 1 on any failure or when no test ran.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDirs } from './workspace-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];

for (const dir of packageDirs(root)) {
  const reportPath = path.join(dir, '.vitest', 'report.json');
  if (!existsSync(reportPath)) continue;
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that fails to load has no failed tests, only a failed file.
  if ((report.numFailedTestSuites ?? 0) > 0 && (report.numFailedTests ?? 0) === 0) {
    failedSuites.push(path.relative(root, dir));
    totals.failed += report.numFailedTestSuites;
  }
}

if (failedSuites.length > 0) console.log(`test files that failed to run: ${failedSuites.join(', ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 || totals.passed === 0 ? 1 : 0;
