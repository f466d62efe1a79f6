// `skein sandbox` as a user runs it: the built binary, real bubblewrap, temporary home and workspace.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');
const { skip: skipReason } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: tmpdir() }));

let home: string;
let work: string;
let outside: string;
let tmp: string;
beforeEach(() => {
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-cli-sandbox-')));
  home = path.join(scratch, 'home');
  work = path.join(scratch, 'work');
  outside = path.join(scratch, 'outside');
  tmp = path.join(scratch, 'tmp');
  for (const dir of [home, work, outside, tmp]) mkdirSync(dir);
});
afterEach(() => rmSync(path.dirname(home), { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs the built skein; its TMPDIR is a sibling of the workspace, so `outside` stays read-only. */
function skein(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: work, encoding: 'buffer', env: { PATH: process.env.PATH, CODEX_HOME: home, TMPDIR: tmp, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr: stderr.toString() });
      },
    );
  });
}

const tmpExcluded = ['-c', 'sandbox_workspace_write.exclude_slash_tmp=true'];

describe.skipIf(skipReason !== '')(`skein sandbox${skipReason}`, () => {
  it('passes stdout, stderr and the exit status through, byte for byte', async () => {
    const run = await skein(['sandbox', '--', 'sh', '-c', 'printf "a\\000b\\377"; echo oops >&2; exit 3']);
    expect(run.code).toBe(3);
    expect([...run.stdout]).toEqual([0x61, 0x00, 0x62, 0xff]);
    expect(run.stderr).toBe('oops\n');
  });

  it('defaults to read-only: the cwd is not writable', async () => {
    const run = await skein(['sandbox', '--', 'sh', '-c', 'touch here.txt']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Read-only file system');
    expect(readdirSync(work)).toEqual([]);
  });

  it('takes sandbox_mode from -c, writing the workspace but nothing outside it', async () => {
    const run = await skein(['sandbox', '-c', 'sandbox_mode="workspace-write"', ...tmpExcluded, '--', 'sh', '-c', `touch in.txt && touch ${outside}/out.txt`]);
    expect(run.code).toBe(1);
    expect(existsSync(path.join(work, 'in.txt'))).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('accepts --sandbox as shorthand and applies [sandbox_workspace_write] from config.toml', async () => {
    writeFileSync(path.join(home, 'config.toml'), `[sandbox_workspace_write]\nwritable_roots = [${JSON.stringify(outside)}]\nexclude_slash_tmp = true\n`);
    const run = await skein(['sandbox', '--sandbox', 'workspace-write', '--', 'sh', '-c', `touch in.txt && touch ${outside}/out.txt`]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readdirSync(outside)).toEqual(['out.txt']);
  });

  it('reads sandbox_mode from the config profile chosen with -p, and lets -P override it', async () => {
    writeFileSync(path.join(home, 'config.toml'), '[profiles.dev]\nsandbox_mode = "workspace-write"\n');
    const allowed = await skein(['sandbox', '-p', 'dev', '--', 'touch', 'a.txt']);
    expect(allowed.code, allowed.stderr).toBe(0);
    const refused = await skein(['sandbox', '-p', 'dev', '-P', ':read-only', '--', 'touch', 'b.txt']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(readdirSync(work)).toEqual(['a.txt']);
  });

  it('runs in the -C directory with a -P profile', async () => {
    const run = await skein(['sandbox', '-P', ':workspace', '-C', outside, '--', 'sh', '-c', 'pwd; touch made.txt']);
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toBe(`${outside}\n`);
    expect(readdirSync(outside)).toEqual(['made.txt']);
  });

  it('runs danger-full-access unconfined', async () => {
    const run = await skein(['sandbox', '-P', ':danger-full-access', '--', 'touch', path.join(outside, 'free.txt')]);
    expect(run.code).toBe(0);
    expect(readdirSync(outside)).toEqual(['free.txt']);
  });

  it('exits with 128 + the signal when the command is killed', async () => {
    expect((await skein(['sandbox', '--', 'sh', '-c', 'kill -TERM $$'])).code).toBe(143);
  });

  it('forwards SIGTERM sent to skein to the command', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--', 'sh', '-c', 'echo ready; sleep 30'], { cwd: work, env: { PATH: process.env.PATH, CODEX_HOME: home, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Ready, or ended before it was: then the failure names what skein said instead of timing out.
    const ready = await new Promise<boolean>((resolve) => {
      child.stdout.once('data', () => resolve(true));
      child.once('close', () => resolve(false));
    });
    expect(ready, stderr).toBe(true);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(143);
  });
});

describe('skein sandbox usage errors', () => {
  it('rejects -C without -P, as codex sandbox does', async () => {
    const run = await skein(['sandbox', '-C', outside, '--', 'true']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-C/--cd requires -P/--permission-profile');
  });

  it('rejects an unknown permission profile and -P combined with --sandbox', async () => {
    const unknown = await skein(['sandbox', '-P', ':everything', '--', 'true']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown permission profile ':everything'");
    const both = await skein(['sandbox', '-P', ':workspace', '--sandbox', 'read-only', '--', 'true']);
    expect(both.code).toBe(2);
  });

  it('rejects an unknown --sandbox mode', async () => {
    const run = await skein(['sandbox', '--sandbox', 'everything', '--', 'true']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Allowed choices are read-only, workspace-write, danger-full-access');
  });

  it('explains what to install when bubblewrap is missing, and runs nothing', async () => {
    const run = await skein(['sandbox', '--', 'touch', path.join(work, 'never.txt')], { PATH: path.join(tmp, 'no-bwrap-here') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: no bwrap executable was found on PATH');
    expect(run.stderr).toContain('apt-get install bubblewrap');
    expect(readdirSync(work)).toEqual([]);
  });
});
