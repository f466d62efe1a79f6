// better-sqlite3 has no prebuilt binary that npm can fetch here (prebuild-install downloads from GitHub,
// which CI cannot reach), so a plain `npm install` compiles SQLite from source: about 90 s of both
// cores, in the middle of the whole suite. The workspace already compiled the same version for this
// Node, so this packs that binary the way prebuild-install looks for a local prebuild, and npm unpacks
// it into the scratch install instead of compiling. What the check proves is unchanged: our tarballs
// install and run with npm outside the workspace; nothing is loaded from the workspace's folders.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes `better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` into `dir` from the copy
 * `fromPackage` depends on, and answers the environment that points prebuild-install at it.
 */
export async function localSqlitePrebuild(fromPackage: string, dir: string): Promise<Record<string, string>> {
  const manifest = createRequire(path.join(fromPackage, 'package.json')).resolve('better-sqlite3/package.json');
  const packageDir = path.dirname(manifest);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  mkdirSync(dir, { recursive: true });
  const tarball = path.join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  await run('tar', ['-czf', tarball, '-C', packageDir, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}
