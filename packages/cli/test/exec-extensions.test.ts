// `skein exec` loads extensions from `[skein] extensions` and `--extension`: the built binary, a real
// module file, and the mock model, which is offered the extension's tool and calls it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

const NOTE_EXTENSION = path.join(import.meta.dirname, 'fixtures', 'note-extension.mjs');

let fixture: ExecScratch;
let server: MockResponsesServer;
beforeEach(async () => {
  fixture = await execScratch('skein-exec-extensions-');
  ({ server } = fixture);
});
afterEach(() => fixture.cleanup());

/** The model calls `note_add`, then answers. */
function expectNoteTurn(): void {
  server.expect([sse(functionCall('note_add', { text: 'buy milk' }), completed()), sse(assistantMessage('Noted.'), completed())]);
}

describe('skein exec --extension and [skein] extensions', () => {
  it('loads an extension named on the command line; the model is offered its tool and gets its answer', async () => {
    expectNoteTurn();
    const { code, stderr } = await fixture.skein(['exec', '--skip-git-repo-check', '--extension', NOTE_EXTENSION, 'Note: buy milk.']);
    expect(stderr).not.toContain('warning');
    expect(code).toBe(0);
    expect(server.requests[0]!.toolNames()).toContain('note_add');
    expect(server.requests[1]!.toolOutputText('call_mock_0002')).toBe('noted: buy milk');
  });

  it('loads an extension config.toml names, resolved from the directory of config.toml', async () => {
    mkdirSync(path.join(fixture.home, 'extensions'));
    writeFileSync(path.join(fixture.home, 'extensions', 'notes.mjs'), `export { extension } from ${JSON.stringify(NOTE_EXTENSION)};\n`);
    fixture.writeConfig('[skein]\nextensions = ["./extensions/notes.mjs"]\n');
    expectNoteTurn();
    const { code, stderr } = await fixture.skein(['exec', 'Note: buy milk.']);
    expect(stderr).not.toContain('warning');
    expect(code).toBe(0);
    expect(server.requests[1]!.toolOutputText('call_mock_0002')).toBe('noted: buy milk');
  });

  it('warns about an extension that fails to load and runs the turn without it', async () => {
    writeFileSync(path.join(fixture.repo, 'broken.mjs'), "throw new Error('broken on purpose');\n");
    server.expect([sse(assistantMessage('Hello.'), completed())]);
    const { code, stdout, stderr } = await fixture.skein(['exec', '--extension', './broken.mjs', '--extension', NOTE_EXTENSION, 'Hi.']);
    expect(code).toBe(0);
    expect(stdout).toBe('Hello.\n');
    expect(stderr).toContain(`warning: extension './broken.mjs' (from --extension): importing ${path.join(fixture.repo, 'broken.mjs')} threw: broken on purpose`);
    // The one that loads still does.
    expect(server.requests[0]!.toolNames()).toContain('note_add');
  });

  it('makes a load failure an error under --strict-config, before the model is asked anything', async () => {
    const { code, stderr } = await fixture.skein(['--strict-config', 'exec', '--extension', './missing.mjs', 'Hi.']);
    expect(code).toBe(1);
    expect(stderr).toContain(`error: extension './missing.mjs' (from --extension): no file ${path.join(fixture.repo, 'missing.mjs')}`);
    expect(server.requests).toEqual([]);
  });

  it('does not load the extensions of an untrusted project', async () => {
    mkdirSync(path.join(fixture.repo, '.codex'));
    writeFileSync(path.join(fixture.repo, '.codex', 'config.toml'), `[skein]\nextensions = [${JSON.stringify(NOTE_EXTENSION)}]\n`);
    server.expect([sse(assistantMessage('Hello.'), completed())]);
    const { code, stderr } = await fixture.skein(['exec', 'Hi.']);
    expect(code).toBe(0);
    expect(stderr).toContain('ignored because');
    expect(server.requests[0]!.toolNames()).not.toContain('note_add');
  });
});
