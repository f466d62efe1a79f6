// `pnpm release:dry-run`: which packages `pnpm release` would publish, at which version, in which order.
// The versions come from the pending changesets (`changeset status`), the order from the workspace
// graph: a package after the siblings it depends on, the order `pnpm -r publish` keeps, so a release
// that stops half-way never leaves a published package naming a sibling version the registry lacks.
// Reads files only: publishes nothing, needs no npm login.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publicPackages } from './public-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'skein-release-plan-'));
let plan;
try {
  const output = path.join(scratch, 'status.json');
  const status = spawnSync('pnpm', ['exec', 'changeset', 'status', `--output=${output}`], { cwd: root, stdio: 'inherit' });
  if (status.status !== 0) process.exit(status.status ?? 1);
  plan = JSON.parse(readFileSync(output, 'utf8'));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const releases = new Map(plan.releases.filter((release) => release.type !== 'none').map((release) => [release.name, release]));
const packages = publicPackages(root);
const publishing = packages.filter((pkg) => releases.has(pkg.name));
const width = Math.max(0, ...publishing.map((pkg) => pkg.name.length));

console.log(
  `Dry run, nothing is published. With the ${plan.changesets.length} pending changesets applied (\`pnpm version-packages\`), \`pnpm release\` would publish, in this order:`,
);
publishing.forEach((pkg, index) => {
  const { oldVersion, newVersion, type, changesets } = releases.get(pkg.name);
  const after = pkg.siblings.length === 0 ? '' : `  after ${pkg.siblings.join(', ')}`;
  console.log(`${String(index + 1).padStart(3)}. ${pkg.name.padEnd(width)}  ${oldVersion} → ${newVersion}  (${type}, ${changesets.length} ${changesets.length === 1 ? 'changeset' : 'changesets'})${after}`);
});
const unchanged = packages.filter((pkg) => !releases.has(pkg.name)).map((pkg) => `${pkg.name}@${pkg.version}`);
if (unchanged.length > 0) console.log(`No pending changes, not published: ${unchanged.join(', ')}`);
const privateReleases = [...releases.keys()].filter((name) => !packages.some((pkg) => pkg.name === name));
if (privateReleases.length > 0) console.log(`Private, never published: ${privateReleases.join(', ')}`);
