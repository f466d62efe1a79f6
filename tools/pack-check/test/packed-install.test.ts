// Packs @skein/extension-api and the siblings it depends on with scripts/pack-packages.mjs, installs
// the tarballs with npm into an empty folder outside the workspace, and uses them there: the proof
// that what would be published works without pnpm's workspace links. Needs the npm registry (or a
// warm npm cache) for the third-party dependencies; CI has it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Packing builds first (cached by turbo); npm then fetches zod, uuid, ws and node-pty's prebuilt binary.
const INSTALL_TIMEOUT_MS = 180_000;

/** What pack-packages.mjs writes to DIR/manifest.json. */
const PackManifest = z.object({
  packages: z.array(z.object({ name: z.string(), version: z.string(), tarball: z.string(), size: z.number(), files: z.number() })),
});

let scratch: string;
let consumer: string;
let packed: z.infer<typeof PackManifest>['packages'];

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-pack-check-'));
  const out = path.join(scratch, 'tarballs');
  await run(process.execPath, [path.join(ROOT, 'scripts', 'pack-packages.mjs'), '--out', out, '--only', '@skein/extension-api'], { cwd: ROOT });
  packed = PackManifest.parse(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))).packages;

  consumer = path.join(scratch, 'consumer');
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Every sibling's tarball is named, so npm takes it from there rather than asking the registry for it.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packed.map((pkg) => pkg.tarball)], {
    cwd: consumer,
  });
}, INSTALL_TIMEOUT_MS);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packed tarballs, installed with npm outside the workspace', () => {
  it('are extension-api and the siblings it depends on, each after its own siblings', () => {
    expect(packed.map((pkg) => pkg.name)).toEqual(['@skein/protocol', '@skein/json-rpc', '@skein/sandboxing', '@skein/exec-server', '@skein/extension-api']);
  });

  it('load under plain Node.js, with the exports an extension uses', async () => {
    // FileSystemError comes through extension-api from exec-server, so the chain of tarballs resolves.
    const script = `
      const api = await import('@skein/extension-api');
      const protocol = await import('@skein/protocol');
      const extension = api.defineExtension({ id: 'packed' });
      console.log(JSON.stringify({
        extensionId: extension.id,
        registryBuilder: typeof api.ExtensionRegistryBuilder,
        fileSystemError: new api.FileSystemError('NotFound', 'gone') instanceof Error,
        threadId: protocol.ThreadId.safeParse(protocol.newThreadId()).success,
      }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({ extensionId: 'packed', registryBuilder: 'function', fileSystemError: true, threadId: true });
  });

  it('give TypeScript the declarations through the exports map', async () => {
    writeFileSync(
      path.join(consumer, 'extension.ts'),
      `import { defineExtension, type ToolContext } from '@skein/extension-api';\n` +
        `export const extension = defineExtension({ id: 'typed' });\n` +
        `export type Signal = ToolContext['signal'];\n`,
    );
    const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: [] };
    writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['extension.ts'] }));
    const result = await run(process.execPath, [TSC, '-p', consumer]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  });
});
