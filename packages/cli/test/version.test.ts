// Versions as Codex clients read them: `skein --version` names Skein's release and the Codex it is
// compatible with; the rollout's `cli_version` carries the Codex version, whose formats the file holds.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

let fixture: ExecScratch;
beforeEach(async () => {
  fixture = await execScratch('skein-version-');
});
afterEach(() => fixture.cleanup());

describe('versions', () => {
  it('prints skein --version with the Codex version it is compatible with', async () => {
    for (const flag of ['--version', '-V']) {
      const { code, stdout } = await fixture.skein([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`skein ${PACKAGE_VERSION} (compatible with codex-cli 0.171.0)\n`);
    }
  });

  it("records Codex's version as the rollout's cli_version", async () => {
    fixture.server.expect([sse(assistantMessage('Hi.'), completed())]);
    expect((await fixture.skein(['exec', 'Hello.'])).code).toBe(0);
    const sessions = path.join(fixture.home, 'sessions');
    const files = readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const meta = JSON.parse(readFileSync(path.join(sessions, files[0]!), 'utf8').split('\n')[0]!) as { type: string; payload: { cli_version: string } };
    expect(meta).toMatchObject({ type: 'session_meta', payload: { cli_version: '0.171.0' } });
  });
});
