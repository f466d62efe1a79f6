import { describe, expect, it } from 'vitest';
import { commandRequirement, type ApprovalPolicy } from './command-requirement.js';
import { isDangerousCommand, scriptHasDangerousCommand } from './dangerous-command.js';
import { isKnownSafeCommand } from './known-safe-command.js';
import { commandsOf, plainCommandsOfScript } from './shell-words.js';

const bash = (script: string) => ['/bin/bash', '-lc', script];

function requirement(policy: ApprovalPolicy, script: string, options: { escalate?: boolean; restricted?: boolean; prefixRule?: string[] } = {}) {
  const argv = bash(script);
  const { commands, complex } = commandsOf(argv);
  return commandRequirement(policy, {
    commands,
    complex,
    argv,
    dangerous: scriptHasDangerousCommand(script),
    escalate: options.escalate ?? false,
    prefixRule: options.prefixRule,
    sandboxRestricted: options.restricted ?? true,
  });
}

describe('shell words', () => {
  it('splits simple scripts at chain operators and refuses anything a shell would expand or redirect', () => {
    expect(plainCommandsOfScript('touch a && echo "b c" | wc -l; ls')).toEqual([['touch', 'a'], ['echo', 'b c'], ['wc', '-l'], ['ls']]);
    for (const complex of ['echo $HOME', 'cat > x', 'echo $(id)', 'ls *.txt', 'echo `id`', '(ls)', 'a &', '&& ls']) {
      expect(plainCommandsOfScript(complex), complex).toBeNull();
    }
    expect(commandsOf(['git', 'status'])).toEqual({ commands: [['git', 'status']], complex: false });
    expect(commandsOf(bash('echo $X'))).toEqual({ commands: [bash('echo $X')], complex: true });
  });
});

describe('command classification', () => {
  it('knows read-only commands, and the options that make them write', () => {
    for (const safe of [['ls', '-la'], ['git', 'status'], ['git', 'branch', '-a'], ['rg', 'foo'], ['find', '.', '-name', 'x'], ['sed', '-n', '1,5p', 'f']]) {
      expect(isKnownSafeCommand(safe), safe.join(' ')).toBe(true);
    }
    for (const unsafe of [['touch', 'x'], ['git', 'push'], ['git', 'branch', '-D', 'x'], ['rg', '--pre', 'sh', 'x'], ['find', '.', '-delete'], ['sed', '-i', 's/a/b/', 'f']]) {
      expect(isKnownSafeCommand(unsafe), unsafe.join(' ')).toBe(false);
    }
  });

  it('flags a forced rm, through sudo and anywhere in a script, and nothing else', () => {
    expect(isDangerousCommand(['rm', '-rf', 'x'])).toBe(true);
    expect(isDangerousCommand(['sudo', 'rm', '--force', 'x'])).toBe(true);
    expect(isDangerousCommand(['rm', 'x'])).toBe(false);
    expect(isDangerousCommand(['rm', '--', '-f'])).toBe(false);
    expect(isDangerousCommand(['git', 'reset', '--hard'])).toBe(false);
    expect(scriptHasDangerousCommand('mkdir -p sub; rm -rf "$PWD/sub" >/dev/null')).toBe(true);
    expect(scriptHasDangerousCommand('echo $(rm -f x)')).toBe(true);
    expect(scriptHasDangerousCommand('echo rm -rf > notes.txt')).toBe(false);
  });
});

describe('commandRequirement', () => {
  it('untrusted runs known-safe chains and asks for the rest, proposing the first command that asked', () => {
    expect(requirement('untrusted', 'ls && cat README.md')).toEqual({ type: 'run', sandboxed: true });
    expect(requirement('untrusted', 'ls && touch x && touch y')).toEqual({ type: 'ask', proposedAmendment: ['touch', 'x'] });
    // A script that is not a plain chain is proposed whole.
    expect(requirement('untrusted', 'echo $HOME')).toEqual({ type: 'ask', proposedAmendment: bash('echo $HOME') });
  });

  it('on-request asks only for escalations in a restricted sandbox, and for dangerous commands', () => {
    expect(requirement('on-request', 'touch x')).toEqual({ type: 'run', sandboxed: true });
    expect(requirement('on-request', 'touch x', { escalate: true, prefixRule: ['touch'] })).toEqual({ type: 'ask', proposedAmendment: ['touch'] });
    expect(requirement('on-request', 'touch x', { escalate: true, restricted: false })).toEqual({ type: 'run', sandboxed: false });
    expect(requirement('on-request', 'rm -rf build')).toEqual({ type: 'ask', proposedAmendment: ['rm', '-rf', 'build'] });
    expect(requirement('on-request', 'git reset --hard')).toEqual({ type: 'run', sandboxed: true });
    expect(requirement('never', 'mkdir d; rm -rf "$PWD/d" >/dev/null')).toMatchObject({ type: 'refuse' });
    // A prefix that would allow any program is not offered.
    expect(requirement('on-request', 'python3 -c 1', { escalate: true, prefixRule: ['python3'] })).toEqual({ type: 'ask', proposedAmendment: undefined });
  });

  it('never runs everything in the sandbox and refuses what would need a question', () => {
    expect(requirement('never', 'touch x')).toEqual({ type: 'run', sandboxed: true });
    expect(requirement('never', 'rm -rf /')).toMatchObject({ type: 'refuse' });
    expect(requirement('on-failure', 'rm -rf build')).toEqual({ type: 'run', sandboxed: true });
  });

  it('granular turns sandbox questions into refusals when sandbox approvals are off', () => {
    const off: ApprovalPolicy = { granular: { sandbox_approval: false, rules: true, mcp_elicitations: true } };
    const on: ApprovalPolicy = { granular: { sandbox_approval: true, rules: true, mcp_elicitations: true } };
    expect(requirement(off, 'touch x', { escalate: true })).toMatchObject({ type: 'refuse' });
    expect(requirement(on, 'touch x', { escalate: true })).toMatchObject({ type: 'ask' });
    expect(requirement(off, 'touch x')).toEqual({ type: 'run', sandboxed: true });
  });
});
