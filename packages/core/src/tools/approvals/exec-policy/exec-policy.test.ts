import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAllowPrefixRule, ExecPolicy, loadExecPolicy } from './exec-policy.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-exec-policy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ExecPolicy', () => {
  it('lets the strictest matching rule decide, and knows nothing of unmatched commands', async () => {
    mkdirSync(path.join(dir, 'rules'));
    writeFileSync(path.join(dir, 'rules', 'a.rules'), 'prefix_rule(pattern=["git"], decision="prompt")\n');
    writeFileSync(path.join(dir, 'rules', 'b.rules'), 'prefix_rule(pattern=["git", "status"])\nprefix_rule(pattern=["git", "push"], decision="forbidden")\n');
    writeFileSync(path.join(dir, 'rules', 'notes.txt'), 'not rules');
    const policy = await loadExecPolicy([path.join(dir, 'rules')]);
    expect(policy.check(['git', 'status'])?.decision).toBe('prompt');
    expect(policy.check(['git', 'push', 'origin'])).toMatchObject({ decision: 'forbidden', rule: { origin: `${path.join(dir, 'rules', 'b.rules')}:2` } });
    expect(policy.check(['ls'])).toBeUndefined();
    policy.allowPrefix(['ls'], 'approved');
    expect(policy.check(['ls', '-l'])?.decision).toBe('allow');
  });

  it('is empty when the rules directory does not exist', async () => {
    expect(new ExecPolicy().check(['ls'])).toBeUndefined();
    expect((await loadExecPolicy([path.join(dir, 'missing')])).check(['ls'])).toBeUndefined();
  });

  it("appends an approved prefix in Codex's form, once, creating the directory", async () => {
    const file = path.join(dir, 'rules', 'default.rules');
    await appendAllowPrefixRule(file, ['touch', 'a "quoted" name']);
    await appendAllowPrefixRule(file, ['touch', 'a "quoted" name']);
    await appendAllowPrefixRule(file, ['git', 'pull']);
    expect(readFileSync(file, 'utf8')).toBe('prefix_rule(pattern=["touch", "a \\"quoted\\" name"], decision="allow")\nprefix_rule(pattern=["git", "pull"], decision="allow")\n');
    const policy = await loadExecPolicy([path.join(dir, 'rules')]);
    expect(policy.check(['touch', 'a "quoted" name'])?.decision).toBe('allow');
  });

  it('reads back every prefix it writes, control characters and backslashes included', async () => {
    const prefix = ['printf', '\x1b[31m\b\f\u2028', 'C:\\dir', 'tab\there', '\ud800'];
    await appendAllowPrefixRule(path.join(dir, 'rules', 'default.rules'), prefix);
    expect((await loadExecPolicy([path.join(dir, 'rules')])).check(prefix)?.decision).toBe('allow');
  });
});
