// Sums the vitest JSON reports of every package into one line, `N passed, N failed, N skipped`,
// because vitest's own summary is per package; before it, lists every skipped test under the reason it
// gave, every test file that failed outside its tests, and every failed test with the first line of
// its message. Exits 1 on any failure, when no test ran, when a skip gives no reason, or (with
// --expect-all) when a package with tests left no report.
//
// A skipped test says why in its title, ` (skipped: <reason>)` on the test or on a suite around it,
// or, when it skips itself at run time, in `meta.skipReason` (see test-support's skipWithReason).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDirs } from './workspace-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
const expectAll = process.argv.includes('--expect-all');
const totals = { passed: 0, failed: 0, skipped: 0 };
/** reason → names of the tests skipped for it */
const skips = new Map();
const unexplained = [];
const unfinished = [];
/** `name: first line of the failure`, printed last so a log cut short still shows them */
const failures = [];
const brokenFiles = [];
const missingReports = [];

// At the end of a title; greedy, since a reason may itself hold parentheses.
const SKIP_REASON = /\(skipped: (.*)\)$/;

/** Why a skipped test skipped: its meta, or the ` (skipped: …)` ending its title or the innermost suite's. */
function skipReason(test) {
  if (typeof test.meta?.skipReason === 'string') return test.meta.skipReason;
  for (const title of [test.title, ...[...(test.ancestorTitles ?? [])].reverse()]) {
    const reason = SKIP_REASON.exec(title ?? '')?.[1];
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function firstLine(message) {
  return typeof message === 'string' ? (message.split('\n').find((line) => line.trim() !== '') ?? '').trim() : '';
}

for (const dir of packageDirs(root)) {
  const pkg = path.relative(root, dir);
  const reportPath = path.join(dir, '.vitest', 'report.json');
  if (!existsSync(reportPath)) {
    const scripts = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts ?? {};
    if (scripts.test !== undefined) missingReports.push(pkg);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  for (const file of report.testResults ?? []) {
    const where = `${pkg}/${path.relative(dir, file.name)}`;
    // An error outside any test: the file did not load, or a suite hook failed.
    if (typeof file.message === 'string' && file.message !== '') {
      totals.failed += 1;
      brokenFiles.push(`${where}: ${file.message.split('\n')[0]}`);
    }
    for (const test of file.assertionResults ?? []) {
      const name = `${where} › ${test.fullName}`;
      switch (test.status) {
        case 'passed':
          totals.passed += 1;
          break;
        case 'failed':
          totals.failed += 1;
          failures.push(`${name}: ${firstLine(test.failureMessages?.[0])}`);
          break;
        case 'skipped':
        case 'todo': {
          totals.skipped += 1;
          const reason = skipReason(test);
          if (reason === undefined) unexplained.push(name);
          // Listed under its reason, so the name need not repeat it.
          else skips.set(reason, [...(skips.get(reason) ?? []), name.replaceAll(` (skipped: ${reason})`, '')]);
          break;
        }
        default:
          // `pending`: started or queued but never finished (the run was cut short).
          totals.failed += 1;
          unfinished.push(name);
      }
    }
  }
}

if (skips.size > 0) {
  console.log('skipped tests, by reason:');
  for (const [reason, names] of skips) {
    console.log(`  ${reason} (${names.length})`);
    for (const name of names) console.log(`    - ${name}`);
  }
}
if (unexplained.length > 0) {
  console.log('skipped tests that do not say why (add ` (skipped: <reason>)` to the title, or use skipWithReason):');
  for (const name of unexplained) console.log(`  - ${name}`);
}
if (unfinished.length > 0) {
  console.log('tests that never finished:');
  for (const name of unfinished) console.log(`  - ${name}`);
}
if (brokenFiles.length > 0) {
  console.log('test files that failed outside their tests:');
  for (const line of brokenFiles) console.log(`  - ${line}`);
}
if (failures.length > 0) {
  console.log('failed tests:');
  for (const line of failures) console.log(`  - ${line}`);
}
if (expectAll && missingReports.length > 0) console.log(`packages whose tests left no report: ${missingReports.join(', ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
const failed = totals.failed > 0 || totals.passed === 0 || unexplained.length > 0 || (expectAll && missingReports.length > 0);
process.exitCode = failed ? 1 : 0;
