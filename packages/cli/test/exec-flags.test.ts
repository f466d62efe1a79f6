// `skein exec`'s flags beyond the SDK's set, and its output for people: the built binary against the
// mock Responses server, asserting on what the model received, on stdout / stderr / exit code and on
// the files left behind (the -o file, rollouts).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ExecEvent } from '@skein/protocol';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, customToolCall, functionCall, httpError, probeSandboxForTests, routed, sse, webSearchCall, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, jsonLines, type ExecScratch } from './support/exec-run.js';
import { SKEIN_VERSION } from '../src/version.js';

let fixture: ExecScratch;
let scratch: string;
let home: string;
let repo: string;
let server: MockResponsesServer;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-flags-');
  ({ scratch, home, repo, server } = fixture);
});
afterEach(() => fixture.cleanup());

const writeConfig = (topLevel: string) => fixture.writeConfig(topLevel);
const skein = (args: string[], options: { readonly stdin?: string; readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {}) => fixture.skein(args, options);

/** Every rollout file under the home directory. */
function rolloutFiles(): string[] {
  const sessions = path.join(home, 'sessions');
  if (!existsSync(sessions)) return [];
  return readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')).map((name) => path.join(sessions, name));
}

const { skip: noSandbox } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));

describe.skipIf(noSandbox !== '')(`skein exec output for people, with tools${noSandbox}`, () => {
  it('shows the banner, the prompt, the command with its output and exit code, the patch and the tokens on stderr; the answer alone on stdout', async () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo hi; ls nope' }), completed()),
      sse(customToolCall('apply_patch', patch), completed()),
      sse(assistantMessage('All done.'), completed()),
    ]);
    const lastFile = path.join(scratch, 'last.txt');
    const { code, stdout, stderr } = await skein(['exec', '-s', 'workspace-write', '-o', lastFile, 'Do things.']);
    expect(code).toBe(0);
    expect(stdout).toBe('All done.\n');
    expect(readFileSync(lastFile, 'utf8')).toBe('All done.');
    const [rollout] = rolloutFiles();
    const threadId = /^session id: (\S+)$/m.exec(stderr)?.[1];
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    // Durations vary from run to run; everything else is exact.
    expect(stderr.replace(/ in \d+ ms$/gm, ' in N ms')).toBe(
      [
        `skein ${SKEIN_VERSION} (exec)`,
        '--------',
        `workdir: ${repo}`,
        'model: gpt-5.5',
        'provider: mock',
        'approval: never',
        'sandbox: workspace-write (writes: workdir, /tmp, $TMPDIR)',
        'reasoning effort: model default',
        `session id: ${threadId}`,
        `rollout: ${rollout}`,
        '--------',
        'user',
        'Do things.',
        'command',
        `/bin/bash -lc 'echo hi; ls nope' in ${repo}`,
        'exited 2 in N ms',
        'hi',
        "ls: cannot access 'nope': No such file or directory",
        'patch applied',
        `  A ${path.join(repo, 'hello.txt')}`,
        // The turn's diff so far, as Codex's exec prints it after a patch.
        'diff --git a/hello.txt b/hello.txt',
        'new file mode 100644',
        'index 0000000000000000000000000000000000000000..ce013625030ba8dba906f756967f9e9ca394464a',
        '--- /dev/null',
        '+++ b/hello.txt',
        '@@ -0,0 +1 @@',
        '+hello',
        '',
        'agent',
        'All done.',
        'tokens used',
        '330',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((request) => request.messageTexts('user').at(-1))).toEqual(['Do things.', 'Do things.', 'Do things.']);
    server.verify();
  });
});

describe('skein exec flags', () => {
  it('-o writes the final message without a newline, with --json too, replacing what was there', async () => {
    server.expect([sse(assistantMessage('The answer.'), completed())]);
    const lastFile = path.join(scratch, 'last.txt');
    writeFileSync(lastFile, 'an older, longer answer from a previous run');
    const { code, stdout } = await skein(['exec', '--json', '--output-last-message', lastFile, 'Answer.']);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').map((line) => ExecEvent.parse(JSON.parse(line)).type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(readFileSync(lastFile, 'utf8')).toBe('The answer.');
    expect(readdirSync(scratch).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('-o leaves an empty file and a warning when the turn ends without a message, and an empty file when it fails', async () => {
    server.expect([sse(completed()), httpError(400, { body: { error: { message: 'bad request body' } } })]);
    const lastFile = path.join(scratch, 'last.txt');
    const silent = await skein(['exec', '-o', lastFile, 'Say nothing.']);
    expect(silent.code).toBe(0);
    expect(silent.stdout).toBe('');
    expect(silent.stderr).toContain(`warning: the turn ended without an agent message; ${lastFile} is empty`);
    expect(readFileSync(lastFile, 'utf8')).toBe('');

    writeFileSync(lastFile, 'stale');
    const failed = await skein(['exec', '-o', lastFile, 'Fail.']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^error: .*bad request body/m);
    expect(readFileSync(lastFile, 'utf8')).toBe('');
  });

  it('-o into a directory that does not exist fails with exit 1 after the turn, naming the file', async () => {
    server.expect([sse(assistantMessage('ok'), completed())]);
    const lastFile = path.join(scratch, 'missing', 'last.txt');
    const { code, stdout, stderr } = await skein(['exec', '-o', lastFile, 'hi']);
    expect(code).toBe(1);
    expect(stdout).toBe('ok\n');
    expect(stderr).toMatch(new RegExp(`^error: could not write the last message to ${lastFile}`, 'm'));
    expect(existsSync(path.join(scratch, 'missing'))).toBe(false);
  });

  it('--ephemeral writes no rollout and leaves nothing to resume', async () => {
    server.expect([sse(assistantMessage('Forgotten soon.'), completed())]);
    const { code, stdout, stderr } = await skein(['exec', '--ephemeral', 'Remember nothing.']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Forgotten soon.\n' });
    expect(stderr).toContain('rollout: none (ephemeral: nothing is written)');
    expect(rolloutFiles()).toEqual([]);
    const resume = await skein(['exec', 'resume', '--last', 'Again?']);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('no thread has run in');
    expect(server.requests).toHaveLength(1);
    server.verify();
  });

  it('refuses --ephemeral with resume before sending anything', async () => {
    const { code, stderr } = await skein(['exec', '--ephemeral', 'resume', '--last', 'hi']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: --ephemeral .*resume/m);
    expect(server.requests).toHaveLength(0);
  });

  it('records a thread that is not ephemeral, with approval never whatever config.toml says', async () => {
    writeConfig('approval_policy = "on-request"\n');
    server.expect([sse(assistantMessage('Kept.'), completed())]);
    const { code, stderr } = await skein(['exec', 'Keep this.']);
    expect(code).toBe(0);
    expect(stderr).toContain('approval: never');
    const files = rolloutFiles();
    expect(files).toHaveLength(1);
    expect(stderr).toContain(`rollout: ${files[0]}`);
    const lines = readFileSync(files[0]!, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    expect(lines.find((line) => line.type === 'turn_context')?.payload).toMatchObject({ approval_policy: 'never' });
  });

  // Issue #35: as Codex's exec refuses it at start-up (probed); a later -c may set another policy.
  it('refuses approval_policy = "untrusted" from config.toml or -c before sending anything, unless a -c overrides it', async () => {
    writeConfig('approval_policy = "untrusted"\n');
    for (const args of [['exec', 'hi'], ['-c', 'approval_policy="on-request"', '-c', 'approval_policy="untrusted"', 'exec', 'hi']]) {
      const { code, stderr } = await skein(args);
      expect({ args, code, stderr }).toEqual({ args, code: 1, stderr: 'error: approval_policy = "untrusted" is no longer supported; remove this setting\n' });
    }
    expect(server.requests).toHaveLength(0);
    server.expect([sse(assistantMessage('Fine.'), completed())]);
    expect((await skein(['-c', 'approval_policy="on-request"', 'exec', 'hi'])).code).toBe(0);
  });

  // Issue #35: as Codex 0.171.0 sends local images (probed): each between numbered <image> texts that
  // name the path as typed, at original detail for gpt-5.5.
  it('-i sends each image framed as Codex frames it, with the path as typed', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64');
    mkdirSync(path.join(repo, 'sub'));
    writeFileSync(path.join(repo, 'sub', 'dot.png'), png);
    writeFileSync(path.join(scratch, 'dot.png'), png);
    server.expect([sse(assistantMessage('Seen.'), completed())]);
    expect((await skein(['exec', 'Two images.', '-i', 'sub/dot.png', '-i', path.join(scratch, 'dot.png')])).code).toBe(0);
    const data = `data:image/png;base64,${png.toString('base64')}`;
    const message = server.requests[0]!.body!.input.at(-1) as unknown as { content: unknown[] };
    expect(message.content).toEqual([
      { type: 'input_text', text: '<image name=[Image #1] path="sub/dot.png">' },
      { type: 'input_image', image_url: data, detail: 'original' },
      { type: 'input_text', text: '</image>' },
      { type: 'input_text', text: `<image name=[Image #2] path="${path.join(scratch, 'dot.png')}">` },
      { type: 'input_image', image_url: data, detail: 'original' },
      { type: 'input_text', text: '</image>' },
      { type: 'input_text', text: 'Two images.' },
    ]);
  });

  // Issue #35: as `codex -C DIR exec …`.
  it('takes -C before the subcommand: the thread works in that directory', async () => {
    server.expect([sse(assistantMessage('There.'), completed())]);
    const { code, stderr } = await fixture.skein(['-C', path.relative(scratch, repo), 'exec', 'hi'], { cwd: scratch });
    expect(code).toBe(0);
    expect(stderr).toContain(`workdir: ${repo}\n`);
    expect(JSON.stringify(server.requests[0]!.body!.input)).toContain(`<cwd>${repo}</cwd>`);
  });

  // Issue #35: `codex --search` offers live web search. (Codex 0.171.0's own exec drops the flag and
  // searches the cache; Skein does what the flag says.) A streamed search shows as Codex's exec shows it.
  it('--search before the subcommand offers live web search; a streamed search is a web_search item in --json and two lines for people', async () => {
    server.expect([sse(webSearchCall('skein runtime', { id: 'ws_1' }), assistantMessage('Found it.'), completed()), sse(webSearchCall('second', { id: 'ws_2' }), assistantMessage('Again.'), completed())]);
    const json = await fixture.skein(['--search', 'exec', '--json', 'find it']);
    expect(json.code).toBe(0);
    expect(server.requests[0]!.body!.tools?.at(-1)).toEqual({ type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'] });
    const lines = jsonLines(json.stdout);
    // The search's lines carry the model's item id; the counter still advances past it (the answer is item_1).
    expect(lines.slice(2)).toEqual([
      { type: 'item.started', item: { id: 'ws_1', type: 'web_search', query: '', action: { type: 'other' } } },
      { type: 'item.completed', item: { id: 'ws_1', type: 'web_search', query: 'skein runtime', action: { type: 'search', query: 'skein runtime', queries: ['skein runtime'] } } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Found it.' } },
      expect.objectContaining({ type: 'turn.completed' }),
    ]);
    const human = await fixture.skein(['exec', 'again']);
    expect(human.code).toBe(0);
    expect(human.stderr).toContain('user\nagain\nweb search: \nweb search: second\n');
    // Without --search, the cache.
    expect(server.requests[1]!.body!.tools?.at(-1)).toMatchObject({ type: 'web_search', external_web_access: false });
    // As in Codex, it is no option of exec's.
    expect((await fixture.skein(['exec', '--search', 'hi'])).stderr).toContain("unknown option '--search'");
  });

  // Issue #36: Codex's v1 multi-agent transcript, client side: only wait_agent shows, as collab_tool_call.
  it('runs a sub-agent with multi_agent_v2 on: wait_agent is a collab_tool_call item, the answer follows, the child writes its own rollout', async () => {
    const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
    server.expect([
      sse(functionCall('spawn_agent', { task_name: 'worker', message: 'Reply with: hello from worker', fork_turns: 'none' }, { namespace: 'collaboration' }), completed()),
      routed(isChild, sse(assistantMessage('hello from worker'), completed())),
      sse(functionCall('wait_agent', { timeout_ms: 30000 }, { namespace: 'collaboration' }), completed()),
      sse(assistantMessage('The worker said: hello from worker.'), completed()),
    ]);
    const { code, stdout } = await fixture.skein(['exec', '--json', '--enable', 'multi_agent_v2', 'Spawn a worker and report.']);
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    const threadId = (lines[0] as { thread_id: string }).thread_id;
    const wait = { type: 'collab_tool_call', tool: 'wait', sender_thread_id: threadId, receiver_thread_ids: [], prompt: null, agents_states: {} };
    expect(lines.slice(1)).toEqual([
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'item_0', ...wait, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_0', ...wait, status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'The worker said: hello from worker.' } },
      expect.objectContaining({ type: 'turn.completed' }),
    ]);
    expect(rolloutFiles()).toHaveLength(2);
  });

  // Issue #36: the recorded Codex transcript, reduced to its shape (fixtures/codex-multi-agent-v1.shape.json),
  // against the same scripted model: the same requests (items by type, role and tag; tools) and events.
  it("matches Codex's v1 multi-agent transcript in request shape and exec --json events", async () => {
    const recorded = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-multi-agent-v1.shape.json'), 'utf8')) as {
      events: unknown[];
      requests: { agent_name: string; thread_source: string; subagent_kind: string | null; input: string[]; tools: string[] }[];
    };
    const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
    server.expect([
      sse(functionCall('spawn_agent', { task_name: 'worker', message: 'Reply with: hello from worker', fork_turns: 'none' }, { namespace: 'collaboration' }), completed()),
      routed(isChild, sse(assistantMessage('hello from worker'), completed())),
      sse(functionCall('wait_agent', { timeout_ms: 30000 }, { namespace: 'collaboration' }), completed()),
      sse(functionCall('list_agents', {}, { namespace: 'collaboration' }), completed()),
      sse(assistantMessage('The worker said: hello from worker.'), completed()),
    ]);
    const { code, stdout } = await fixture.skein(['exec', '--json', '--enable', 'multi_agent_v2', '--skip-git-repo-check', 'Spawn a sub-agent named worker that says hello, wait for it, list the agents, then report.']);
    expect(code).toBe(0);
    const tag = (text: string) => (text.startsWith('<') ? `${text.split('>')[0]}>` : 'text');
    const itemShape = (item: Record<string, unknown>): string => {
      const content = (item['content'] ?? []) as { type: string; text?: string }[];
      if (item['type'] === 'message') return `${String(item['role'])}:${content.filter((part) => part.text !== undefined).map((part) => tag(part.text!.trim())).join('+')}`;
      if (item['type'] === 'function_call') return `function_call:${typeof item['namespace'] === 'string' ? item['namespace'] : ''}.${String(item['name'])}`;
      if (item['type'] === 'agent_message') return `agent_message:${content[0]?.text?.split('\n')[0] ?? ''}`;
      return String(item['type']);
    };
    // Skills depend on what is installed: they are left out of the comparison.
    const withoutSkills = (shape: string) => shape.replace('<skills_instructions>+', '');
    const ours = server.requests.map((request) => {
      const metadata = JSON.parse(request.header('x-codex-turn-metadata') ?? '{}') as Record<string, string | undefined>;
      return {
        agent_name: metadata['agent_name'],
        thread_source: metadata['thread_source'],
        subagent_kind: metadata['subagent_kind'] ?? null,
        input: (request.body!.input as unknown as Record<string, unknown>[]).map((item) => withoutSkills(itemShape(item))),
        tools: request.toolNames({ qualified: true }),
      };
    });
    const expected = recorded.requests.map((request) => ({ ...request, input: request.input.map(withoutSkills) }));
    // Codex's child asked after the parent's second request; ours asks concurrently: compare each conversation in order.
    const byAgent = (requests: readonly { agent_name?: string | undefined }[], agent: string) => requests.filter((request) => request.agent_name === agent);
    expect(byAgent(ours, '/root')).toEqual(byAgent(expected, '/root'));
    expect(byAgent(ours, '/root/worker')).toEqual(byAgent(expected, '/root/worker'));
    const events = jsonLines(stdout).map((line) => JSON.parse(JSON.stringify(line).replaceAll(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<UUID:1>"')) as unknown);
    expect(events.slice(0, -1)).toEqual(recorded.events.slice(0, -1));
  });

  // Issue #35: a wrapper names itself to the provider and in the rollout, as Codex lets it.
  it('sends CODEX_INTERNAL_ORIGINATOR_OVERRIDE as the originator and records it', async () => {
    server.expect([sse(assistantMessage('Named.'), completed()), sse(assistantMessage('Default.'), completed())]);
    expect((await fixture.skein(['exec', 'hi'], { env: { CODEX_INTERNAL_ORIGINATOR_OVERRIDE: 'my_wrapper' } })).code).toBe(0);
    expect((await skein(['exec', 'hi'])).code).toBe(0);
    expect(server.requests.map((request) => request.header('originator'))).toEqual(['my_wrapper', 'skein_exec']);
    const metas = rolloutFiles().map((file) => (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { payload: { originator: string } }).payload.originator);
    expect(metas.sort()).toEqual(['my_wrapper', 'skein_exec']);
  });

  // Issue #35: wrappers read these lines as Codex prints them.
  it('prints `session id:` on a resume too, and the tokens used on the line after, with separators, after a failed turn too', async () => {
    server.expect([sse(assistantMessage('Big.'), completed({ usage: { inputTokens: 1_234_000, outputTokens: 567 } })), httpError(400)]);
    const first = await skein(['exec', 'hi']);
    expect(first.stderr).toMatch(/\ntokens used\n1,234,567\n$/);
    const threadId = /^session id: (\S+)$/m.exec(first.stderr)?.[1];
    const resumed = await skein(['exec', 'resume', threadId ?? '', 'again']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(`\nsession id: ${threadId}\n`);
    expect(resumed.stderr).toMatch(/\ntokens used\n0\n$/);
  });

  it('refuses to run outside a git repository with exit 1 and no request or rollout, and runs there with --skip-git-repo-check', async () => {
    const plain = path.join(scratch, 'plain');
    mkdirSync(plain);
    const refused = await skein(['exec', 'hi'], { cwd: plain });
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `error: ${plain} is not inside a git repository; pass --skip-git-repo-check to run here anyway\n` });
    const refusedJson = await skein(['exec', '--json', 'hi'], { cwd: plain });
    expect(refusedJson.code).toBe(1);
    expect(refusedJson.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
    expect(rolloutFiles()).toEqual([]);

    server.expect([sse(assistantMessage('Ran anyway.'), completed())]);
    const allowed = await skein(['exec', '--skip-git-repo-check', 'hi'], { cwd: plain });
    expect({ code: allowed.code, stdout: allowed.stdout }).toEqual({ code: 0, stdout: 'Ran anyway.\n' });
  });

  it('--color always styles the progress output; never and auto (stderr is a pipe here) do not; stdout is never styled', async () => {
    server.expect([sse(assistantMessage('Plain.'), completed()), sse(assistantMessage('Plain.'), completed()), sse(assistantMessage('Plain.'), completed())]);
    const always = await skein(['exec', '--color', 'always', 'hi']);
    expect(always.stderr).toContain('\u001b[1mworkdir:\u001b[22m');
    expect(always.stdout).toBe('Plain.\n');
    for (const mode of ['never', 'auto']) {
      const run = await skein(['exec', '--color', mode, 'hi']);
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain('\u001b[');
    }
    const invalid = await skein(['exec', '--color', 'sometimes', 'hi']);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('sometimes');
  });

  it('appends piped stdin to a prompt given as an argument, in a <stdin> block', async () => {
    server.expect([sse(assistantMessage('Read it.'), completed())]);
    const { code } = await skein(['exec', 'Summarize this log.'], { stdin: 'line one\nline two\n\n' });
    expect(code).toBe(0);
    expect(server.requests[0]!.messageTexts('user').at(-1)).toBe('Summarize this log.\n\n<stdin>\nline one\nline two\n</stdin>');
  });

  it('--dangerously-bypass-approvals-and-sandbox tells the model it has full access, and refuses to be combined with --sandbox', async () => {
    server.expect([sse(assistantMessage('Unconfined.'), completed())]);
    const { code, stderr } = await skein(['exec', '--dangerously-bypass-approvals-and-sandbox', 'hi']);
    expect(code).toBe(0);
    expect(stderr).toContain('sandbox: danger-full-access');
    expect(server.requests[0]!.messageTexts('developer').some((text) => text.includes('danger-full-access'))).toBe(true);
    const both = await skein(['exec', '--dangerously-bypass-approvals-and-sandbox', '-s', 'read-only', 'hi']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('cannot be used with');
    expect(server.requests).toHaveLength(1);
  });
});

describe('skein exec on a machine whose sandbox cannot run', () => {
  it('warns once on stderr, naming the remedy, unless the run needs no sandbox', async () => {
    server.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed()), sse(assistantMessage('Three.'), completed())]);
    // No bwrap on this PATH (nor anything else: the turn runs no command).
    const env = { PATH: path.join(scratch, 'no-bwrap') };
    const human = await skein(['exec', '-s', 'workspace-write', 'Hello.'], { env });
    const json = await skein(['exec', '--json', '-s', 'read-only', 'Hello.'], { env });
    const unconfined = await skein(['exec', '-s', 'danger-full-access', 'Hello.'], { env });
    expect([human.code, json.code, unconfined.code]).toEqual([0, 0, 0]);
    const warning = /^warning: The sandbox cannot confine commands on this machine: no bwrap executable was found on PATH.*apt-get install bubblewrap.*$/m;
    expect(human.stderr).toMatch(warning);
    expect(human.stderr.match(/^warning: The sandbox/gm)).toHaveLength(1);
    // The JSON stream stays clean; the warning goes to stderr.
    expect(json.stderr).toMatch(warning);
    expect(jsonLines(json.stdout).map((event) => event.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(unconfined.stderr).not.toContain('The sandbox cannot');
  });
});
