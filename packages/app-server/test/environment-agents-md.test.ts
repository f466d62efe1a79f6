// AGENTS.md per environment (issue #15), as Codex 0.171.0 reads it (probed with a local and a remote
// environment): each environment's docs come through its own file system, from its project root
// (the nearest folder with a `.git`) down to its cwd; with docs on two environments each gets a
// ``for `<id>` with root <cwd>`` section; `instructionSources` lists every file, the global one first.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { EXEC_TOKEN } from './support/exec-servers.js';
import { useExecutorScenario } from './support/executor-scenario.js';

/** Whether bubblewrap can bind a folder over another here (it needs user namespaces). */
const BWRAP = spawnSync('bwrap', ['--dev-bind', '/', '/', '--tmpfs', os.tmpdir(), 'true']).status === 0;

const scenario = useExecutorScenario();

/** A repository at `root` with a doc at its root and one in `root/<sub>`; returns the sub folder. */
function repository(root: string, sub: string, name: string): string {
  const cwd = path.join(root, sub);
  mkdirSync(path.join(root, '.git'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(path.join(root, 'AGENTS.md'), `${name} ROOT DOC\n`);
  writeFileSync(path.join(cwd, 'AGENTS.md'), `${name} SUB DOC\n`);
  return cwd;
}

/** Starts a thread on the local workspace and the remote executor, runs one turn; the AGENTS.md text the model got and the start answer. */
async function firstTurn(url: string, localCwd: string, remoteCwd: string): Promise<{ agentsMd: string | undefined; instructionSources: string[] }> {
  const { model } = scenario();
  model.expect([sse(assistantMessage('Read.'), completed())]);
  const client = await scenario().connect();
  await client.request('environment/add', { environmentId: 'remote', execServerUrl: url, authBearerToken: EXEC_TOKEN });
  const started = (await client.request('thread/start', {
    cwd: localCwd,
    approvalPolicy: 'never',
    environments: [
      { environmentId: 'local', cwd: localCwd },
      { environmentId: 'remote', cwd: remoteCwd },
    ],
  })) as { thread: { id: string }; instructionSources: string[] };
  const { turn } = (await client.request('turn/start', { threadId: started.thread.id, input: [{ type: 'text', text: 'Go', text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
  expect(client.schemaFailures).toEqual([]);
  // The fragment is the first part of the user context message; <environment_context> follows it.
  const context = model.requests[0]!.messageTexts('user').find((message) => message.startsWith('# AGENTS.md instructions'));
  const agentsMd = context?.slice(0, context.indexOf('</INSTRUCTIONS>') + '</INSTRUCTIONS>'.length);
  return { agentsMd, instructionSources: started.instructionSources };
}

describe('AGENTS.md on every attached environment', () => {
  it('reads each environment’s docs from its project root down, one section per environment, and lists every file', async () => {
    const { home } = scenario();
    writeFileSync(path.join(home.home, 'AGENTS.md'), 'GLOBAL RULES\n');
    const localRoot = path.join(home.workspace, 'proj');
    const localCwd = repository(localRoot, 'sub', 'A');
    const executor = await scenario().startExecutor('executor');
    const remoteRoot = path.join(executor.root, 'repo');
    const remoteCwd = repository(remoteRoot, 'pkg', 'B');

    const { agentsMd, instructionSources } = await firstTurn(executor.url, localCwd, remoteCwd);
    expect(agentsMd).toBe(
      [
        '# AGENTS.md instructions',
        '',
        '<INSTRUCTIONS>',
        'GLOBAL RULES',
        '',
        `for \`local\` with root ${localCwd}`,
        '',
        'A ROOT DOC\n\n',
        'A SUB DOC\n\n',
        `for \`remote\` with root ${remoteCwd}`,
        '',
        'B ROOT DOC\n\n',
        'B SUB DOC\n',
        '</INSTRUCTIONS>',
      ].join('\n'),
    );
    expect(instructionSources).toEqual([
      path.join(home.home, 'AGENTS.md'),
      path.join(localRoot, 'AGENTS.md'),
      path.join(localCwd, 'AGENTS.md'),
      path.join(remoteRoot, 'AGENTS.md'),
      path.join(remoteCwd, 'AGENTS.md'),
    ]);
  });

  it.skipIf(!BWRAP)('finds a remote environment’s docs on the executor’s own file system (the executor under bubblewrap)', async () => {
    const { home } = scenario();
    // `view` is empty on this host; the executor sees `hidden` bound over it, a repository with docs.
    const root = path.join(path.dirname(home.workspace), 'isolated');
    const hidden = path.join(root, 'hidden');
    const view = path.join(root, 'view');
    repository(path.join(hidden, 'repo'), 'pkg', 'B');
    mkdirSync(view, { recursive: true });
    const executor = await scenario().startExecutor('isolated', () => ['bwrap', '--die-with-parent', '--dev-bind', '/', '/', '--bind', hidden, view]);
    const remoteCwd = path.join(view, 'repo', 'pkg');

    // Only the remote environment has docs: Codex's one-environment form, titled with its cwd.
    const { agentsMd, instructionSources } = await firstTurn(executor.url, home.workspace, remoteCwd);
    expect(agentsMd).toBe(`# AGENTS.md instructions for ${remoteCwd}\n\n<INSTRUCTIONS>\nB ROOT DOC\n\n\nB SUB DOC\n\n</INSTRUCTIONS>`);
    expect(instructionSources).toEqual([path.join(view, 'repo', 'AGENTS.md'), path.join(remoteCwd, 'AGENTS.md')]);
  });
});
