// The apply_patch tool on real temporary directories through the local executor filesystem.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileSystemSandboxContext, LocalFileSystem } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLY_PATCH_LARK_GRAMMAR, APPLY_PATCH_TOOL_SPEC, applyPatchTool, type PatchFileSummary } from './apply-patch-tool.js';
import { applyPlannedChanges } from './apply-planned-changes.js';
import { parsePatch } from './parse-patch.js';
import { PatchApplyError, planPatch } from './plan-patch.js';
import { testToolContext, type TestToolContextOptions } from '../../../test/support/tool-context.js';

const fs = new LocalFileSystem();
const context = (options: Omit<TestToolContextOptions, 'fs' | 'cwd'> = {}) => testToolContext({ callId: 'call_1', turnId: 'turn_1', fs, cwd, ...options });
let root: string;
let cwd: PathUri;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-apply-patch-'));
  cwd = PathUri.fromNativePath(root, 'posix');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (name: string) => path.join(root, name);
const read = (name: string) => readFileSync(file(name), 'utf8');
const write = (name: string, text: string) => {
  mkdirSync(path.dirname(file(name)), { recursive: true });
  writeFileSync(file(name), text);
};
const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

/** The tool with a clock that advances 250 ms per reading, and the summaries it reported (applied, and failed). */
function tool(options: { sandbox?: FileSystemSandboxContext } = {}) {
  let clock = 1_000;
  const reported: (readonly PatchFileSummary[])[] = [];
  const failed: (readonly PatchFileSummary[])[] = [];
  const handler = applyPatchTool({
    now: () => (clock += 250),
    onChanges: (summary, _context, success) => (success ? reported : failed).push(summary),
  });
  return { run: (input: string) => handler.handle(input, context(options)), reported, failed };
}

const success = (...lines: string[]) =>
  ['Exit code: 0', 'Wall time: 0.3 seconds', 'Output:', 'Success. Updated the following files:', ...lines, ''].join('\n');

describe('apply_patch tool', () => {
  it('offers Codex’s exact grammar as a custom tool named apply_patch', () => {
    expect(APPLY_PATCH_TOOL_SPEC).toMatchObject({ type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark' } });
    expect(APPLY_PATCH_LARK_GRAMMAR).toBe(
      'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n\nhunk: add_hunk | delete_hunk | update_hunk\nadd_hunk: "*** Add File: " filename LF add_line+\ndelete_hunk: "*** Delete File: " filename LF\nupdate_hunk: "*** Update File: " filename LF change_move? change?\n\nfilename: /(.+)/\nadd_line: "+" /(.*)/ LF -> line\n\nchange_move: "*** Move to: " filename LF\nchange: (change_context | change_line)+ eof_line?\nchange_context: ("@@" | "@@ " /(.+)/) LF\nchange_line: ("+" | "-" | " ") /(.*)/ LF\neof_line: "*** End of File" LF\n\n%import common.LF\n',
    );
  });

  it('adds a file and answers in Codex’s format (c2_apply_patch_gpt55)', async () => {
    const { run, reported } = tool();
    const result = await run('*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n*** End Patch\n');
    expect(result).toEqual({ output: success('A hello.txt'), success: true, structured: {} });
    expect(read('hello.txt')).toBe('Hello, world!\n');
    expect(reported).toEqual([[{ path: file('hello.txt'), kind: 'add', diff: 'Hello, world!\n' }]]);
  });

  it('creates missing parent directories for an added file', async () => {
    const result = await tool().run(wrap('*** Add File: deep/er/new.txt', '+x'));
    expect(result.output).toBe(success('A deep/er/new.txt'));
    expect(read('deep/er/new.txt')).toBe('x\n');
  });

  it('updates a file with an @@ change (n_exec_multi_tool_gpt55)', async () => {
    write('notes.txt', 'alpha\nbeta\n');
    const { run, reported } = tool();
    expect((await run(wrap('*** Update File: notes.txt', '@@', ' alpha', ' beta', '+gamma'))).output).toBe(success('M notes.txt'));
    expect(read('notes.txt')).toBe('alpha\nbeta\ngamma\n');
    // The rollout of n_exec_multi_tool_gpt55 records this unified diff.
    expect(reported).toEqual([[{ path: file('notes.txt'), kind: 'update', diff: '@@ -2 +2,2 @@\n beta\n+gamma\n' }]]);
  });

  it('applies several changes to one file, the last at the end of the file', async () => {
    write('src/app.py', 'import os\n\ndef a():\n    return 1\n\ndef b():\n    return 2\n\nmain()\n');
    const patch = wrap(
      '*** Update File: src/app.py',
      '@@',
      '-import os',
      '+import sys',
      '@@ def b():',
      '-    return 2',
      '+    return 3',
      '@@',
      ' ',
      '-main()',
      '+main(sys.argv)',
      '*** End of File',
    );
    expect((await tool().run(patch)).output).toBe(success('M src/app.py'));
    expect(read('src/app.py')).toBe('import sys\n\ndef a():\n    return 1\n\ndef b():\n    return 3\n\nmain(sys.argv)\n');
  });

  it('deletes a file', async () => {
    write('old.txt', 'bye\n');
    const { run, reported } = tool();
    expect((await run(wrap('*** Delete File: old.txt'))).output).toBe(success('D old.txt'));
    expect(existsSync(file('old.txt'))).toBe(false);
    expect(reported).toEqual([[{ path: file('old.txt'), kind: 'delete', diff: 'bye\n' }]]);
  });

  it('moves an updated file, listing it under its new path', async () => {
    write('a/old.ts', 'export const x = 1;\n');
    const { run, reported } = tool();
    const result = await run(wrap('*** Update File: a/old.ts', '*** Move to: b/new.ts', '@@', '-export const x = 1;', '+export const x = 2;'));
    expect(result.output).toBe(success('M b/new.ts'));
    expect(existsSync(file('a/old.ts'))).toBe(false);
    expect(read('b/new.ts')).toBe('export const x = 2;\n');
    expect(reported).toEqual([[{ path: file('a/old.ts'), kind: 'update', movePath: file('b/new.ts'), diff: '@@ -1 +1 @@\n-export const x = 1;\n+export const x = 2;\n' }]]);
  });

  it('lists added, then modified, then deleted files, whatever the patch order', async () => {
    write('gone.txt', 'x\n');
    write('kept.txt', 'a\n');
    const patch = wrap('*** Delete File: gone.txt', '*** Update File: kept.txt', '@@', '-a', '+b', '*** Add File: new.txt', '+n');
    expect((await tool().run(patch)).output).toBe(success('A new.txt', 'M kept.txt', 'D gone.txt'));
  });

  it('applies hunks in order, so a later hunk sees an earlier one', async () => {
    const patch = wrap('*** Add File: f.txt', '+one', '*** Update File: f.txt', '@@', '-one', '+two', '*** Update File: f.txt', '*** Move to: g.txt', '@@', ' two', '+three');
    expect((await tool().run(patch)).output).toBe(success('A f.txt', 'M f.txt', 'M g.txt'));
    expect(existsSync(file('f.txt'))).toBe(false);
    expect(read('g.txt')).toBe('two\nthree\n');
  });

  it('overwrites a file that Add File names when it exists, as Codex does', async () => {
    write('exists.txt', 'old\n');
    expect((await tool().run(wrap('*** Add File: exists.txt', '+new'))).output).toBe(success('A exists.txt'));
    expect(read('exists.txt')).toBe('new\n');
  });

  it('leaves every file untouched when one change does not fit', async () => {
    write('one.txt', 'first\n');
    write('two.txt', 'second\n');
    const { run, reported, failed } = tool();
    const patch = wrap(
      '*** Add File: added.txt',
      '+x',
      '*** Update File: one.txt',
      '@@',
      '-first',
      '+FIRST',
      '*** Delete File: two.txt',
      '*** Update File: one.txt',
      '@@',
      '-not in the file',
      '+y',
    );
    const result = await run(patch);
    expect(result).toEqual({
      output: 'Exit code: 1\nWall time: 0.3 seconds\nOutput:\ncould not find the lines of change 1 (patch line 10) in one.txt:\nnot in the file\n',
      success: false,
    });
    expect(existsSync(file('added.txt'))).toBe(false);
    expect(read('one.txt')).toBe('first\n');
    expect(read('two.txt')).toBe('second\n');
    expect(reported).toEqual([]);
    // What it set out to change is still reported, for the client to show a failed file change.
    expect(failed).toEqual([
      [
        { path: file('added.txt'), kind: 'add', diff: '' },
        { path: file('one.txt'), kind: 'update', diff: '' },
        { path: file('two.txt'), kind: 'delete', diff: '' },
        { path: file('one.txt'), kind: 'update', diff: '' },
      ],
    ]);
  });

  it('tells the model which file is missing', async () => {
    expect((await tool().run(wrap('*** Update File: nope.txt', '@@', '-a', '+b'))).output).toBe(
      'Exit code: 1\nWall time: 0.3 seconds\nOutput:\ncannot update nope.txt: no such file\n',
    );
    expect((await tool().run(wrap('*** Delete File: nope.txt'))).output).toContain('cannot delete nope.txt: no such file\n');
  });

  it('refuses to treat a directory as a file', async () => {
    mkdirSync(file('dir'));
    expect((await tool().run(wrap('*** Delete File: dir'))).output).toContain('dir is not a regular file');
    expect(existsSync(file('dir'))).toBe(true);
  });

  it('answers a malformed patch with the line at fault', async () => {
    const result = await tool().run('*** Begin Patch\n*** Frobnicate File: x\n*** End Patch');
    expect(result.success).toBe(false);
    expect(result.output).toBe(
      "Exit code: 1\nWall time: 0.3 seconds\nOutput:\ninvalid patch: line 2: '*** Frobnicate File: x' is not a valid hunk header; expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>'\n",
    );
  });

  it('answers a patch without hunks as a failure', async () => {
    expect((await tool().run('*** Begin Patch\n*** End Patch')).output).toContain('Output:\nthe patch changes no files\n');
  });

  it('writes nothing once the turn is interrupted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    const handler = applyPatchTool({ now: () => 0 });
    await expect(handler.handle(wrap('*** Add File: late.txt', '+x'), context({ signal: controller.signal }))).rejects.toThrow('interrupted');
    expect(existsSync(file('late.txt'))).toBe(false);
  });

  it('passes the sandbox context to every filesystem call', async () => {
    const sandbox = FileSystemSandboxContext.parse({
      permissions: { type: 'managed', network: 'restricted', file_system: { type: 'restricted', entries: [{ path: { type: 'special', value: { kind: 'root' } }, access: 'read' }] } },
      cwd: cwd.toString(),
      windowsSandboxLevel: 'disabled',
    });
    // This LocalFileSystem has no sandboxed runner, so a confined call must fail rather than run unconfined.
    const result = await tool({ sandbox }).run(wrap('*** Add File: confined.txt', '+x'));
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/cannot read confined\.txt: .*sandbox/);
    expect(existsSync(file('confined.txt'))).toBe(false);
  });
});

describe('applyPlannedChanges', () => {
  it('restores every file when a write fails midway', async () => {
    write('a.txt', 'a\n');
    write('m.txt', 'm\n');
    write('d.txt', 'd\n');
    const patch = parsePatch(
      wrap('*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: m.txt', '*** Move to: moved/m.txt', '@@', '-m', '+M', '*** Delete File: d.txt', '*** Add File: z.txt', '+z'),
    );
    const changes = await planPatch(patch, fs, cwd);
    // Something else creates a directory where the patch adds a file after planning: the last write fails.
    mkdirSync(file('z.txt'));
    const failure = await applyPlannedChanges(changes, fs).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PatchApplyError);
    expect(failure).toMatchObject({ code: 'WriteFailed', path: 'z.txt' });
    expect((failure as Error).message).toMatch(/^failed to write z\.txt: .*; no file was changed$/);
    expect(read('a.txt')).toBe('a\n');
    expect(read('m.txt')).toBe('m\n');
    expect(read('d.txt')).toBe('d\n');
    expect(existsSync(file('moved/m.txt'))).toBe(false);
  });

  it('writes nothing before planning has checked every hunk', async () => {
    write('a.txt', 'a\n');
    const patch = parsePatch(wrap('*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: missing.txt', '@@', '-x', '+y'));
    await expect(planPatch(patch, fs, cwd)).rejects.toMatchObject({ code: 'FileNotFound', path: 'missing.txt', line: 6 });
    expect(read('a.txt')).toBe('a\n');
  });

  it('keeps the bytes of files it does not touch and the line endings of those it does', async () => {
    writeFileSync(file('crlf.txt'), 'one\r\ntwo\r\n');
    const changes = await planPatch(parsePatch(wrap('*** Update File: crlf.txt', '@@', ' one', '-two', '+2', '+3')), fs, cwd);
    await applyPlannedChanges(changes, fs);
    expect(read('crlf.txt')).toBe('one\r\n2\r\n3\r\n');
  });
});
