// Runs the demo as `pnpm demo` does (the built program, which runs the built skein binary), so the
// README's first command keeps working.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const DEMO = path.join(import.meta.dirname, '..', 'dist', 'demo.js');

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-demo-test-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function demo(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // TMPDIR points the demo's temporary directory into the scratch directory; HOME is empty, so the
    // login shell its commands run in reads no profile of this machine.
    const env = { PATH: process.env.PATH, HOME: scratch, TMPDIR: scratch };
    const child = spawn(process.execPath, [DEMO], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const { skip: noSandbox } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));

describe.skipIf(noSandbox !== '')(`pnpm demo${noSandbox}`, () => {
  it('runs a sandboxed command and a patch through the real skein binary, and shows the rollout it wrote', async () => {
    const { code, output } = await demo();
    expect(code, output).toBe(0);
    const [dirName] = readdirSync(scratch).filter((name) => name.startsWith('skein-demo-'));
    const dir = path.join(scratch, dirName!);
    const workspace = path.join(dir, 'workspace');
    expect(readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n\n- read the design notes\n- try Skein offline\n');
    // The progress skein printed: the command before and after the patch, the patch, the answer.
    expect(output).toContain(`/bin/bash -lc 'cat notes.md' in ${workspace}\nsucceeded in`);
    expect(output).toContain(`patch applied\n  M ${path.join(workspace, 'notes.md')}\n`);
    expect(output).toContain('- read the design notes\n- try Skein offline');
    expect(output).toContain('agent\nI added "try Skein offline" to notes.md; it now has two items.\n');
    expect(output).toContain('skein exited with 0.');
    // The rollout: its path, and its first line (session_meta) as written.
    const rollout = /^(\/\S+\.jsonl)$/m.exec(output)?.[1];
    expect(rollout?.startsWith(path.join(dir, 'home', 'sessions'))).toBe(true);
    const lines = readFileSync(rollout!, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session_meta' });
    expect(output).toContain('   1  session_meta\n');
    expect(output).toContain('response_item custom_tool_call apply_patch\n');
    expect(output).toContain(`  ${String(lines.length).padStart(2)}  event_msg task_complete\n`);
    expect(output).toContain(`Everything the demo made is in ${dir}`);
  });
});
