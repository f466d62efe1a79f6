// `skein exec` with lifecycle hooks: an untrusted hook does not run unless
// --dangerously-bypass-hook-trust says so (with a warning), and a block shows on stderr.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hookHash } from '@skein/hooks';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

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
    expect(bypassed.stderr).toContain('hook: PreToolUse\nhook: PreToolUse Blocked\n  nothing runs today\n');
    expect(server.requests[3]!.toolOutputText('call_bypassed.txt')).toBe(`Command blocked by PreToolUse hook: nothing runs today. Command: touch bypassed.txt`);
  });

  it("matches Codex's z1 scenario: a trusted PreToolUse hook blocks `rm` and the JSON stream shows no command, only the answer", async () => {
    const { home, repo, server } = fixture;
    const guard = path.join(home, 'no-rm.sh');
    writeFileSync(guard, '#!/bin/sh\ncase "$(cat)" in *\'"rm \'*) echo "no rm here" >&2; exit 2;; esac\n');
    chmodSync(guard, 0o755);
    const configFile = path.join(home, 'config.toml');
    const hash = hookHash({ event: 'preToolUse', matcher: 'Bash', handler: { type: 'command', command: guard, async: false }, timeoutSec: 600, statusMessage: null });
    fixture.writeConfig(`[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "${guard}"\n\n[hooks.state."${configFile}:pre_tool_use:0:0"]\ntrusted_hash = "${hash}"\n\n`);
    writeFileSync(path.join(repo, 'victim.txt'), 'keep\n');
    server.expect([sse(functionCall('exec_command', { cmd: 'rm -f victim.txt' }, { callId: 'call_rm' }), completed()), sse(assistantMessage('ok'), completed())]);
    const run = await fixture.skein(['exec', '--json', '-s', 'danger-full-access', 'please remove']);
    expect(run.code).toBe(0);
    // Codex 0.171.0's events for the same scenario (recorded): the blocked call has no item.
    expect(jsonLines(run.stdout).map((event) => (event.type === 'item.completed' ? `${event.type}:${event.item.type}` : event.type))).toEqual(['thread.started', 'turn.started', 'item.completed:agent_message', 'turn.completed']);
    expect(existsSync(path.join(repo, 'victim.txt'))).toBe(true);
    expect(server.requests[1]!.toolOutputText('call_rm')).toBe('Command blocked by PreToolUse hook: no rm here. Command: rm -f victim.txt');
  });
});
