// The engine against real hook scripts: what a hook reads on stdin, how its exit and output decide,
// and every way a hook can misbehave — each a failed run that blocks nothing.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HookInput } from '@skein/extension-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookEngine, type ConfiguredHook, type HookRunSummary } from '../src/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-hook-engine-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = path.join(root, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function hook(command: string, overrides: Partial<ConfiguredHook> = {}): ConfiguredHook {
  return {
    key: `${root}/config.toml:pre_tool_use:0:0`,
    event: 'preToolUse',
    matcher: null,
    handler: { type: 'command', command, async: false },
    timeoutSec: 10,
    statusMessage: null,
    source: 'user',
    sourcePath: `${root}/config.toml`,
    displayOrder: 0,
    currentHash: 'sha256:x',
    trustStatus: 'trusted',
    enabled: true,
    environmentId: null,
    ...overrides,
  };
}

const input: HookInput = { session_id: 's', turn_id: 't', transcript_path: null, cwd: '/', hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'call_1' };

async function run(hooks: ConfiguredHook[], engineOptions: { bypassTrust?: boolean } = {}) {
  const seen: [string, HookRunSummary][] = [];
  const engine = new HookEngine({ hooks, env: { PATH: process.env.PATH }, ...engineOptions });
  const outcome = await engine.run({ event: 'preToolUse', input, matchValue: 'Bash', runSuffix: 'call_1', cwd: root, signal: new AbortController().signal, onRun: (phase, summary) => seen.push([phase, summary]) });
  return { outcome, seen };
}

describe('HookEngine', () => {
  it('gives a hook the event on stdin and blocks with its stderr on exit 2', async () => {
    const log = path.join(root, 'stdin.json');
    const { outcome, seen } = await run([hook(`${script('guard', `cat > ${log}; echo "no rm here" >&2; exit 2`)}`)]);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual(input);
    expect(outcome.blocked).toEqual({ reason: 'no rm here', runId: `pre-tool-use:0:${root}/config.toml:call_1` });
    expect(seen.map(([phase, summary]) => [phase, summary.status])).toEqual([['started', 'running'], ['completed', 'blocked']]);
    expect(seen[1]![1]).toMatchObject({ eventName: 'preToolUse', handlerType: 'command', executionMode: 'sync', scope: 'turn', entries: [{ kind: 'feedback', text: 'no rm here' }] });
  });

  it('reads JSON answers: a deny, a block decision, additional context', async () => {
    const deny = script('deny', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by policy"}}'`);
    const context = script('context', `echo '{"hookSpecificOutput":{"additionalContext":"be careful"}}'`);
    const { outcome } = await run([hook(context, { displayOrder: 0 }), hook(deny, { displayOrder: 1 })]);
    expect(outcome.blocked?.reason).toBe('denied by policy');
    expect(outcome.contexts.map((entry) => entry.text)).toEqual(['be careful']);
  });

  it('runs only trusted, enabled hooks whose matcher selects the tool, unless trust is bypassed', async () => {
    const marker = path.join(root, 'ran');
    const touch = script('touch', `touch ${marker}`);
    await run([hook(touch, { trustStatus: 'untrusted' }), hook(touch, { trustStatus: 'modified' }), hook(touch, { enabled: false }), hook(touch, { matcher: 'apply_patch' })]);
    expect(() => readFileSync(marker)).toThrow();
    await run([hook(touch, { matcher: 'Ba.*' })]);
    expect(readFileSync(marker, 'utf8')).toBe('');
    rmSync(marker);
    await run([hook(touch, { trustStatus: 'untrusted' })], { bypassTrust: true });
    expect(readFileSync(marker, 'utf8')).toBe('');
  });

  it("never lets the trust bypass run an executor project's hook", () => {
    const engine = new HookEngine({ hooks: [hook('true', { trustStatus: 'untrusted', environmentId: 'remote' })], env: {}, bypassTrust: true });
    expect(engine.hasHooks('preToolUse')).toBe(false);
    const trusted = new HookEngine({ hooks: [hook('true', { trustStatus: 'trusted', environmentId: 'remote' })], env: {}, bypassTrust: true });
    expect(trusted.hasHooks('preToolUse')).toBe(true);
  });

  it('turns every misbehaving hook into a failed run that blocks nothing', async () => {
    const notExecutable = path.join(root, 'plain.sh');
    writeFileSync(notExecutable, 'exit 2\n');
    const deleted = script('gone', 'exit 2');
    rmSync(deleted);
    const hooks = [
      hook(notExecutable),
      hook(deleted),
      hook(script('hangs', 'sleep 30'), { timeoutSec: 1 }),
      hook(script('floods', 'head -c 10485760 /dev/zero')),
      hook(script('garbled', `echo '{"decision": '`)),
      hook(script('wrong-type', `echo '{"decision": 42}'`)),
      hook(script('fails', 'echo broken >&2; exit 1')),
    ].map((entry, displayOrder) => ({ ...entry, displayOrder }));
    const { outcome } = await run(hooks);
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.runs.map((summary) => summary.status)).toEqual(Array(hooks.length).fill('failed'));
    expect(outcome.runs.map((summary) => summary.entries[0]?.text)).toEqual([
      expect.stringMatching(/code 126/),
      expect.stringMatching(/code 127/),
      'the hook did not finish within 1 s',
      expect.stringMatching(/printed more than 1048576 bytes/),
      expect.stringMatching(/invalid JSON/),
      expect.stringMatching(/does not fit: decision/),
      'the hook exited with code 1: broken',
    ]);
  });

  it('rewrites input only on an allow that carries it; refuses what Codex refuses, changing nothing', async () => {
    const answer = (name: string, json: object) => hook(script(name, `echo '${JSON.stringify(json)}'`));
    const specific = (fields: object) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
    const rewrite = await run([answer('rewrite', specific({ permissionDecision: 'allow', updatedInput: { command: 'echo safe' } }))]);
    expect(rewrite.outcome).toMatchObject({ blocked: undefined, updatedInput: { command: 'echo safe' } });
    expect(rewrite.outcome.runs[0]?.status).toBe('completed');

    const refused: [object, string][] = [
      [specific({ permissionDecision: 'allow' }), 'PreToolUse hook returned unsupported permissionDecision:allow'],
      [specific({ updatedInput: { command: 'x' } }), 'PreToolUse hook returned updatedInput without permissionDecision:allow'],
      [specific({ permissionDecision: 'deny' }), 'PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason'],
      [specific({ permissionDecision: 'ask' }), 'PreToolUse hook returned unsupported permissionDecision:ask'],
      [specific({ permissionDecisionReason: 'why' }), 'PreToolUse hook returned permissionDecisionReason without permissionDecision'],
      [{ decision: 'approve' }, 'PreToolUse hook returned unsupported decision:approve'],
      [{ reason: 'why' }, 'PreToolUse hook returned reason without decision'],
      [{ continue: false }, 'PreToolUse hook returned unsupported continue:false'],
      [{ suppressOutput: true }, 'PreToolUse hook returned unsupported suppressOutput'],
      [{ stopReason: 'stop' }, 'PreToolUse hook returned unsupported stopReason'],
    ];
    const { outcome } = await run(refused.map(([json], index) => ({ ...answer(`refused-${index}`, json), displayOrder: index })));
    expect(outcome).toMatchObject({ blocked: undefined, updatedInput: undefined });
    expect(outcome.runs.map((summary) => [summary.status, summary.entries[0]?.text])).toEqual(refused.map(([, message]) => ['failed', message]));
  });

  it('fails an exit 2 that gives no reason instead of blocking', async () => {
    const { outcome } = await run([hook(script('silent', 'exit 2'))]);
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.runs[0]?.entries).toEqual([{ kind: 'error', text: 'PreToolUse hook exited with code 2 but did not write a blocking reason to stderr' }]);
  });

  it('refuses plain stdout from an Interrupt hook and shows its systemMessage', async () => {
    const engine = new HookEngine({ hooks: [hook(script('plain', 'echo hello'), { event: 'interrupt' }), hook(script('json', `echo '{"systemMessage":"stopped"}'`), { event: 'interrupt', displayOrder: 1 })], env: { PATH: process.env.PATH } });
    const outcome = await engine.run({ event: 'interrupt', input: { ...input, hook_event_name: 'Interrupt' }, cwd: root, signal: new AbortController().signal });
    expect(outcome.runs.map((summary) => [summary.status, summary.entries])).toEqual([
      ['failed', [{ kind: 'error', text: 'Interrupt hook returned non-JSON stdout' }]],
      ['completed', [{ kind: 'warning', text: 'stopped' }]],
    ]);
  });

  it('runs extension hooks beside command hooks, a throw being a failed run', async () => {
    const engine = new HookEngine({
      hooks: [],
      env: {},
      contributed: [
        { extensionId: 'policy', contributor: { event: 'preToolUse', matcher: 'Bash', run: (given) => ((given.tool_input as { command: string }).command.startsWith('rm') ? { decision: 'block', reason: 'policy says no' } : undefined) } },
        { extensionId: 'broken', contributor: { event: 'preToolUse', run: () => { throw new Error('oops'); } } },
      ],
    });
    const outcome = await engine.run({ event: 'preToolUse', input, matchValue: 'Bash', cwd: root, signal: new AbortController().signal });
    expect(outcome.blocked?.reason).toBe('policy says no');
    expect(outcome.runs.map((summary) => [summary.sourcePath, summary.status])).toEqual([['extension:policy', 'blocked'], ['extension:broken', 'failed']]);
    expect(engine.handles('postToolUse')).toBe(false);
  });
});
