// Checkpoints on a remote executor, against a real exec-server: the snapshot, the restore and the
// private repository of a folder outside git all live on the executor's machine, reached through its
// own process runner; the revert restores its files exactly.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, mockProviderConfigToml, sse, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { EXEC_TOKEN } from './support/exec-servers.js';
import { useExecutorScenario } from './support/executor-scenario.js';
import { fileHashes, git, userGitState, userRepository } from './support/git-workspace.js';
import { runTurn } from './support/hook-scenario.js';

const scenario = useExecutorScenario();

const PATCH = ['*** Begin Patch', '*** Update File: edit.txt', '@@', '-edit.txt as committed', '+edited on the executor', '*** End Patch', ''].join('\n');

/** A thread whose only environment is an exec-server working in `<executor>/project`; returns it and the project. */
async function executorThread(prepare: (project: string) => void): Promise<{ readonly client: AppServerTestClient; readonly threadId: string; readonly project: string; readonly root: string }> {
  const executor = await scenario().startExecutor('executor');
  const project = path.join(executor.root, 'project');
  mkdirSync(project, { recursive: true });
  prepare(project);
  const client = await scenario().connect();
  await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
  const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: project }] })) as { thread: { id: string } };
  return { client, threadId: started.thread.id, project, root: executor.root };
}

describe('checkpoints on an executor', () => {
  it("restore a git project's files there, leaving its git state alone", async () => {
    const { model } = scenario();
    model.expect([
      sse(customToolCall('apply_patch', PATCH, { callId: 'call_patch' }), completed()),
      sse(functionCall('exec_command', { cmd: 'printf remote > made.txt && rm keep.txt' }, { callId: 'call_shell' }), completed()),
      sse(assistantMessage('Changed.'), completed()),
    ]);
    let initial: Record<string, string> = {};
    let state = '';
    const { client, threadId, project } = await executorThread((dir) => {
      userRepository(dir);
      initial = fileHashes(dir);
      state = userGitState(dir);
    });
    const turnId = await runTurn(client, threadId, 'Change things over there.');
    expect(readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('remote');

    const answer = (await client.request('thread/revert', { threadId, beforeTurnId: turnId })) as { fileRestore: { environments: { environmentId: string; restored: { path: string }[]; conflicts: string[] }[] } };

    expect(fileHashes(project)).toEqual(initial);
    expect(userGitState(project)).toBe(state);
    expect(answer.fileRestore.environments).toEqual([expect.objectContaining({ environmentId: 'remote', conflicts: [] })]);
    expect(answer.fileRestore.environments[0]!.restored.map((file) => path.relative(project, file.path)).sort()).toEqual(['edit.txt', 'keep.txt', 'made.txt']);
    // The turn's own checkpoints are gone with it; the state before the revert is kept to undo it by hand.
    expect(git(project, 'for-each-ref', '--format=%(refname)', 'refs/skein/').trim()).toMatch(new RegExp(`^refs/skein/checkpoints/${threadId}/revert-\\d+$`));
    expect(client.schemaFailures).toEqual([]);
  });

  it('with mode "on", keeps a folder outside git in a private repository in the executor user\'s home', async () => {
    const { model, home } = scenario();
    writeFileSync(path.join(home.home, 'config.toml'), `${mockProviderConfigToml(model.url)}\n[skein.checkpoints]\nmode = "on"\n`);
    model.expect([sse(functionCall('exec_command', { cmd: 'printf changed > notes.txt && printf new > new.txt' }, { callId: 'call_shell' }), completed()), sse(assistantMessage('Changed.'), completed())]);
    const { client, threadId, project, root } = await executorThread((dir) => writeFileSync(path.join(dir, 'notes.txt'), 'original\n'));
    const turnId = await runTurn(client, threadId, 'Change the notes.');

    await client.request('thread/revert', { threadId, beforeTurnId: turnId });

    expect(readFileSync(path.join(project, 'notes.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(path.join(project, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(project, '.git'))).toBe(false);
    // The exec-server's HOME is its root: the private repository is there, not on this machine.
    expect(readdirSync(path.join(root, '.codex', 'skein-checkpoints'))).toHaveLength(1);
    expect(existsSync(path.join(home.home, 'checkpoints'))).toBe(false);
  });
});
