// loadConfig reuses a config whose files are unchanged (issue #43: it ran on every turn) and reads
// again once any file it read, or any path it looked for, changes. Files are dated explicitly with
// utimes, so nothing here depends on the clock's tick or on how fast the test runs.
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.js';

let scratch: string;
let home: string;
let project: string;
/** A file date well outside the racy window: an hour ago. */
const settled = new Date(Date.now() - 3_600_000);
const later = (seconds: number) => new Date(settled.getTime() + seconds * 1000);

beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-config-cache-'));
  home = path.join(scratch, 'home');
  project = path.join(scratch, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(project, '.git'), { recursive: true });
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `file` and dates it `modified`. */
function write(file: string, text: string, modified: Date): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, modified, modified);
}
const userFile = () => path.join(home, 'config.toml');
const load = (overrides: readonly string[] = []) => loadConfig({ cwd: project, env: {}, homeDir: home, systemConfigFile: null, overrides });

describe('loadConfig caching', () => {
  it('answers an unchanged config with the same loaded result', async () => {
    write(userFile(), 'model = "gpt-a"\n', settled);

    const first = await load();
    const second = await load();

    expect(second).toBe(first);
    expect(second.config.model).toBe('gpt-a');
  });

  it('picks up an edited config.toml on the next load, even one of the same size', async () => {
    write(userFile(), 'model = "gpt-a"\n', settled);
    expect((await load()).config.model).toBe('gpt-a');

    write(userFile(), 'model = "gpt-b"\n', later(1));

    expect((await load()).config.model).toBe('gpt-b');
  });

  it('keeps configs with different overrides apart', async () => {
    write(userFile(), 'model = "gpt-a"\n', settled);

    expect((await load(['model="gpt-c"'])).config.model).toBe('gpt-c');
    expect((await load()).config.model).toBe('gpt-a');
  });

  it('reads a project config that appears after the first load', async () => {
    write(userFile(), `model = "gpt-a"\n[projects."${project}"]\ntrust_level = "trusted"\n`, settled);
    expect((await load()).config.model).toBe('gpt-a');

    write(path.join(project, '.codex', 'config.toml'), 'model = "gpt-project"\n', settled);

    expect((await load()).config.model).toBe('gpt-project');
  });

  it('sees a hooks.json that appears beside a project without config.toml', async () => {
    write(userFile(), `[projects."${project}"]\ntrust_level = "trusted"\n`, settled);
    expect((await load()).config.layers.map((layer) => layer.name.type)).toEqual(['user']);

    write(path.join(project, '.codex', 'hooks.json'), '{}', settled);

    expect((await load()).config.layers.map((layer) => layer.name.type)).toEqual(['user', 'project']);
  });

  it('reads a deleted config.toml as gone', async () => {
    write(userFile(), 'model = "gpt-a"\n', settled);
    expect((await load()).config.model).toBe('gpt-a');

    rmSync(userFile());

    expect((await load()).config.model).not.toBe('gpt-a');
  });

  it('does not keep a config read from a file modified within the racy window', async () => {
    // Dated in the future: its next write could land in the same timestamp tick, unseen.
    write(userFile(), 'model = "gpt-a"\n', new Date(Date.now() + 60_000));

    const first = await load();

    expect(await load()).not.toBe(first);
  });
});
