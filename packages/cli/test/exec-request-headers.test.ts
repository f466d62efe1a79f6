// The headers of `skein exec`'s model requests against Codex 0.171.0's (test-support's
// codexRequestHeaders: the a2 transcript and probes): the same names in the same order, the turn
// metadata's keys in Codex's order with the values that do not vary, the installation id of the home,
// and how a resumed thread and a thread with full access say so.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, codexRequestHeaders, completed, sse, TRANSPORT_HEADERS, type CapturedRequest } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';

const recorded = codexRequestHeaders();
const metadataOf = (request: CapturedRequest) => JSON.parse(request.header('x-codex-turn-metadata')!) as Record<string, unknown>;

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-headers-');
});
afterEach(() => fixture.cleanup());

describe('skein exec request headers', () => {
  it("sends Codex's headers in Codex's order, with the turn metadata's keys in Codex's order", async () => {
    fixture.server.expect([sse(assistantMessage('Hello.'), completed())]);
    const { code } = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'Say hello.']);
    expect(code).toBe(0);

    const [request] = fixture.server.requests;
    expect(Object.keys(request!.headers).filter((name) => !TRANSPORT_HEADERS.has(name))).toEqual(recorded.exec.headers);
    expect(request!.header('x-codex-beta-features')).toBe(recorded.exec.betaFeatures);
    const metadata = metadataOf(request!);
    expect(Object.keys(metadata)).toEqual(recorded.exec.metadataKeys);
    expect(metadata).toMatchObject(recorded.exec.metadata);
    // The home's installation id, made on first use, in the header and the body.
    const installationId = readFileSync(path.join(fixture.home, 'installation_id'), 'utf8').trim();
    expect(metadata['installation_id']).toBe(installationId);
    const clientMetadata = request!.body!.client_metadata as Record<string, string>;
    expect(Object.keys(clientMetadata).sort()).toEqual(recorded.exec.clientMetadataKeys);
    expect(clientMetadata['x-codex-installation-id']).toBe(installationId);
    expect(request!.header('user-agent')).toMatch(/^skein_exec\/0\.171\.0 \(.+; .+\) \S+ \(skein_exec; 0\.171\.0\)$/);
  });

  it('says a resumed thread was loaded cold, and a thread without a sandbox runs in none', async () => {
    fixture.server.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed()), sse(assistantMessage('Three.'), completed())]);
    const first = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'One.']);
    expect(first.code).toBe(0);
    const started = jsonLines(first.stdout)[0];
    if (started?.type !== 'thread.started') throw new Error(`expected thread.started, got ${JSON.stringify(started)}`);
    const resumed = await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'resume', started.thread_id, 'Two.']);
    expect(resumed.code).toBe(0);
    const open = await fixture.skein(['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Three.']);
    expect(open.code).toBe(0);

    const [, second, third] = fixture.server.requests.map(metadataOf);
    expect(second).toMatchObject({ thread_id: started.thread_id, history_initialization: recorded.probed.resume, turn_trigger: 'exec' });
    expect(third).toMatchObject({ history_initialization: 'new', sandbox: recorded.probed.fullAccessSandbox, sandbox_mode: 'danger-full-access' });
  });
});
