// Skein's bundled system skills are unpacked into `<home>/skills/.system`, as Codex unpacks its own, so
// the model reads them as ordinary files. A marker with the bundle's digest makes this a no-op once
// done; each skill is written to a temporary folder and renamed into place, so a crash never leaves
// half a skill. Only Skein's own folders are touched: Codex's system skills beside them are kept.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { systemSkillsDir } from './host-roots.js';

const MARKER = '.skein-system-skills.marker';

/** The folder the bundled skills ship in (`system-skills/` at the package root). */
export function bundledSkillsDir(): string {
  // Bundled into a host's executable that ships a copy beside it (skein's dist/): right here, first,
  // so no folder above an installed bundle is taken for it. Built into dist/index.js, or run from
  // src/host/ in tests: one or two levels up.
  for (const relative of ['./system-skills', '../system-skills', '../../system-skills']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  // Bundled without a copy: the folder is in the installed package (resolving it costs a start ~2 ms).
  try {
    const manifest = createRequire(import.meta.url).resolve('@skein/ext-skills/package.json');
    const dir = path.join(path.dirname(manifest), 'system-skills');
    if (existsSync(dir)) return dir;
  } catch {
    // Not resolvable from here: reported below.
  }
  throw new Error('the bundled system-skills folder of @skein/ext-skills is missing');
}

/** Writes the bundled skills into `<home>/skills/.system` unless the marker says they are current. */
export async function unpackSystemSkills(home: string, source: string = bundledSkillsDir()): Promise<void> {
  const target = systemSkillsDir(home);
  const names = (await readdir(source, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const digest = await bundleDigest(source, names);
  const marker = path.join(target, MARKER);
  if ((await readFile(marker, 'utf8').catch(() => '')).trim() === digest) return;
  await mkdir(target, { recursive: true });
  for (const name of names) {
    const staging = path.join(target, `.${name}.${process.pid}.tmp`);
    await rm(staging, { recursive: true, force: true });
    await cp(path.join(source, name), staging, { recursive: true });
    await rm(path.join(target, name), { recursive: true, force: true });
    await rename(staging, path.join(target, name));
  }
  await writeFile(`${marker}.tmp`, `${digest}\n`);
  await rename(`${marker}.tmp`, marker);
}

async function bundleDigest(source: string, names: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (dir: string, relative: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const child = path.join(dir, entry.name);
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await visit(child, name);
      else hash.update(name).update('\0').update(await readFile(child)).update('\0');
    }
  };
  for (const name of names) await visit(path.join(source, name), name);
  return hash.digest('hex').slice(0, 16);
}
