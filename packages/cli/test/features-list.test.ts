// Runs the built `skein` binary as a user would, against a temporary home directory.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FEATURE_REGISTRY } from '@skein/features';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');
const run = promisify(execFile);

let home: string;
let cwd: string;
beforeEach(() => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'skein-cli-'));
  home = path.join(scratch, 'home');
  cwd = path.join(scratch, 'work');
  mkdirSync(home);
  mkdirSync(cwd);
});
afterEach(() => rmSync(path.dirname(home), { recursive: true, force: true }));

async function skein(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, CODEX_HOME: home } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** `key → [stage label, value]` from the printed table, checking each line's column layout. */
function parseTable(stdout: string): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  for (const line of stdout.trimEnd().split('\n')) {
    const match = /^(\S+)\s+(under development|experimental|stable|deprecated|removed)\s+(true|false)$/.exec(line);
    expect(match, `unexpected line: ${line}`).not.toBeNull();
    expect(line.indexOf(match![2]!)).toBe(41);
    rows.set(match![1]!, [match![2]!, match![3]!]);
  }
  return rows;
}

describe('skein features list', () => {
  it('lists every registered feature with its stage and default, in codex features list columns', async () => {
    const { code, stdout, stderr } = await skein('features', 'list');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = parseTable(stdout);
    expect([...rows.keys()]).toEqual(FEATURE_REGISTRY.map((spec) => spec.key));
    expect(rows.get('goals')).toEqual(['stable', 'true']);
    expect(rows.get('code_mode')).toEqual(['under development', 'false']);
    expect(rows.get('tool_search')).toEqual(['removed', 'false']);
    expect(rows.get('auto_compaction')).toEqual(['stable', 'true']);
    expect(stdout).toContain('multi_agent_v2                           stable             false\n');
  });

  it('shows the effective value after config, profile, -c and --enable/--disable', async () => {
    writeFileSync(
      path.join(home, 'config.toml'),
      '[features]\ngoals = false\n[profiles.dev.features]\nmulti_agent_v2 = true\n',
    );
    const { code, stdout, stderr } = await skein(
      'features', 'list', '--profile', 'dev', '-c', 'features.current_time_reminder=true', '--enable', 'code_mode', '--disable', 'auto_compaction',
    );
    expect(code).toBe(0);
    const rows = parseTable(stdout);
    expect(rows.get('goals')?.[1]).toBe('false');
    expect(rows.get('multi_agent_v2')?.[1]).toBe('true');
    expect(rows.get('current_time_reminder')?.[1]).toBe('true');
    expect(rows.get('code_mode')?.[1]).toBe('true');
    expect(rows.get('auto_compaction')?.[1]).toBe('false');
    expect(stderr).toContain('warning: features.code_mode is under development and was turned on by --enable code_mode');
  });

  it('accepts the global options before the subcommand too', async () => {
    const { code, stdout } = await skein('--enable', 'code_mode', 'features', 'list');
    expect(code).toBe(0);
    expect(parseTable(stdout).get('code_mode')?.[1]).toBe('true');
  });

  it('fails with the file, the key and the reason when config is invalid, and prints no table', async () => {
    writeFileSync(path.join(home, 'config.toml'), 'sandbox_mode = "everything"\n');
    const { code, stdout, stderr } = await skein('features', 'list');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`error: ${path.join(home, 'config.toml')}: sandbox_mode: `);
  });

  it('rejects --enable of a feature that does not exist', async () => {
    const { code, stderr } = await skein('features', 'list', '--enable', 'gaols');
    expect(code).toBe(1);
    expect(stderr).toContain('error: --enable gaols: features.gaols: unknown feature flag');
  });

  it('rejects a malformed -c override', async () => {
    const { code, stderr } = await skein('features', 'list', '-c', 'no-equals');
    expect(code).toBe(1);
    expect(stderr).toContain('error: -c no-equals: expected key=value');
  });

  it('answers an unknown subcommand with a usage error', async () => {
    const { code, stderr } = await skein('featurez');
    expect(code).not.toBe(0);
    expect(stderr).toContain("unknown command 'featurez'");
  });
});
