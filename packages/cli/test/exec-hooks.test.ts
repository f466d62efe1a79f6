// `skein exec` with lifecycle hooks: an untrusted hook does not run unless
// --dangerously-bypass-hook-trust says so (with a warning), and a block shows on stderr.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
beforeEach(async () => {
  fixture = await execScratch('skein-exec-hooks-');
});
afterEach(() => fixture.cleanup());

describe('skein exec with hooks', () => {
  it('skips an untrusted hook, and runs it under --dangerously-bypass-hook-trust with a warning', async () => {
    const { home, repo, server } = fixture;
    const hook = path.join(home, 'deny-all.sh');
    writeFileSync(hook, '#!/bin/sh\necho "nothing runs today" >&2\nexit 2\n');
    chmodSync(hook, 0o755);
    fixture.writeConfig(`[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "${hook}"\n\n`);
    const turn = (file: string) => [sse(functionCall('exec_command', { cmd: `touch ${file}` }, { callId: `call_${file}` }), completed()), sse(assistantMessage('Done.'), completed())];
    server.expect([...turn('untrusted.txt'), ...turn('bypassed.txt')]);

    const untrusted = await fixture.skein(['exec', '-s', 'danger-full-access', 'Touch it.']);
    expect(untrusted.code).toBe(0);
    expect(existsSync(path.join(repo, 'untrusted.txt'))).toBe(true);
    expect(untrusted.stderr).not.toContain('hook preToolUse');

    const bypassed = await fixture.skein(['exec', '--dangerously-bypass-hook-trust', '-s', 'danger-full-access', 'Touch it.']);
    expect(bypassed.code).toBe(0);
    expect(existsSync(path.join(repo, 'bypassed.txt'))).toBe(false);
    expect(bypassed.stderr).toContain('warning: --dangerously-bypass-hook-trust is on');
    expect(bypassed.stderr).toMatch(/hook preToolUse blocked: nothing runs today/);
    expect(server.requests[3]!.toolOutputText('call_bypassed.txt')).toBe(`Command blocked by PreToolUse hook: nothing runs today. Command: touch bypassed.txt`);
  });
});
