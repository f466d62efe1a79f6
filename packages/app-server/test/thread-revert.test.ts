// thread/revert with checkpoints, end to end: turns write through apply_patch and shell commands,
// the revert drops them from the history (Codex's answer and rollback line) and puts their files back
// exactly (hashes compared), keeps and reports a file the user changed since, and never touches the
// user's index, HEAD, branches or stash.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, sse, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { fileHashes, git, userGitState, userRepository } from './support/git-workspace.js';
import { runTurn } from './support/hook-scenario.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();

const PATCH_ONE = ['*** Begin Patch', '*** Add File: src/new.txt', '+made by turn one', '*** Update File: edit.txt', '@@', '-edit.txt as committed', '+edited by turn one', '*** Delete File: gone.txt', '*** End Patch', ''].join('\n');
const PATCH_TWO = ['*** Begin Patch', '*** Update File: edit.txt', '@@', '-edited by turn one', '+edited by turn two', '*** Add File: later.txt', '+made by turn two', '*** End Patch', ''].join('\n');

async function revert(client: AppServerTestClient, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await client.request('thread/revert', params)) as Record<string, unknown>;
}

describe('thread/revert', () => {
  it('drops the turns and restores their files exactly, keeping a file the user changed since, and the user git state', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    const initial = fileHashes(workspace);
    const userState = userGitState(workspace);
    model.expect([
      sse(customToolCall('apply_patch', PATCH_ONE, { callId: 'call_patch_one' }), completed()),
      sse(functionCall('exec_command', { cmd: 'printf shell > shell.txt && rm keep.txt && chmod 755 staged.txt' }, { callId: 'call_shell' }), completed()),
      sse(assistantMessage('Turn one done.'), completed()),
      sse(customToolCall('apply_patch', PATCH_TWO, { callId: 'call_patch_two' }), completed()),
      sse(assistantMessage('Turn two done.'), completed()),
      sse(assistantMessage('After the revert.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnOne = await runTurn(client, threadId, 'First change.');
    await runTurn(client, threadId, 'Second change.');
    expect(readFileSync(path.join(workspace, 'edit.txt'), 'utf8')).toBe('edited by turn two\n');
    expect(existsSync(path.join(workspace, 'keep.txt'))).toBe(false);
    // The user edits a file the agent wrote, after it wrote it.
    writeFileSync(path.join(workspace, 'later.txt'), 'the user kept working here\n');
    // Checkpoints never changed the user's git state.
    expect(userGitState(workspace)).toBe(userState);

    const answer = await revert(client, { threadId, beforeTurnId: turnOne });

    expect(fileHashes(workspace, ['later.txt'])).toEqual(initial);
    expect(readFileSync(path.join(workspace, 'later.txt'), 'utf8')).toBe('the user kept working here\n');
    expect(existsSync(path.join(workspace, 'src'))).toBe(false);
    expect(userGitState(workspace)).toBe(userState);
    expect(answer['thread']).toMatchObject({ id: threadId, turns: [] });
    const restore = answer['fileRestore'] as { turnId: string; environments: { environmentId: string; restored: { path: string; kind: string }[]; conflicts: string[]; failed: string[]; error: null }[] };
    expect(restore.environments).toHaveLength(1);
    const [local] = restore.environments;
    expect(local).toMatchObject({ environmentId: 'local', conflicts: [path.join(workspace, 'later.txt')], failed: [], error: null });
    expect(Object.fromEntries(local!.restored.map((file) => [path.relative(workspace, file.path), file.kind]))).toEqual({
      'edit.txt': 'update',
      'gone.txt': 'add',
      'keep.txt': 'add',
      'shell.txt': 'delete',
      'src/new.txt': 'delete',
      'staged.txt': 'update',
    });
    // The client sees the restore as a turn with a file change, then thread/reverted; the warning names the kept file.
    await client.waitFor('thread/reverted', (params) => (params as { threadId: string }).threadId === threadId);
    const change = client.notificationsOf('item/completed').map((params) => (params as { turnId: string; item: { type: string; changes: { path: string; diff: string }[] } })).find((params) => params.turnId === restore.turnId);
    expect(change?.item.type).toBe('fileChange');
    expect(change?.item.changes.find((file) => file.path.endsWith('edit.txt'))?.diff).toContain('+edit.txt as committed');
    expect(JSON.stringify(client.notificationsOf('warning'))).toContain('later.txt');
    expect(client.schemaFailures).toEqual([]);

    // The history the model sees next holds neither turn; the rollout recorded Codex's rollback line.
    await runTurn(client, threadId, 'Carry on.');
    const body = JSON.stringify(model.requests.at(-1)!.body?.input);
    expect(body).toContain('Carry on.');
    expect(body).not.toContain('First change.');
    expect(body).not.toContain('Second change.');
    const { thread } = (await client.request('thread/read', { threadId, includeTurns: false })) as { thread: { path: string } };
    expect(readFileSync(thread.path, 'utf8')).toContain('{"type":"thread_rolled_back","num_turns":2}');
  });

  it('keeps the files with restoreFiles false, overwrites the user\'s change with force, and answers Codex\'s refusals', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    model.expect([
      sse(functionCall('exec_command', { cmd: 'printf one > one.txt' }, { callId: 'call_one' }), completed()),
      sse(assistantMessage('One.'), completed()),
      sse(functionCall('exec_command', { cmd: 'printf two > two.txt' }, { callId: 'call_two' }), completed()),
      sse(assistantMessage('Two.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnOne = await runTurn(client, threadId, 'One.');
    const turnTwo = await runTurn(client, threadId, 'Two.');

    await expect(revert(client, { threadId, beforeTurnId: 'no-such-turn' })).rejects.toThrow(/-32600: turn not found: no-such-turn$/);
    await expect(revert(client, { threadId: '019a0000-0000-7000-8000-000000000000', beforeTurnId: turnOne })).rejects.toThrow(/-32600: thread not found: 019a0000-0000-7000-8000-000000000000$/)

    const kept = await revert(client, { threadId, beforeTurnId: turnTwo, restoreFiles: false });
    expect(kept['fileRestore']).toBeNull();
    expect(existsSync(path.join(workspace, 'two.txt'))).toBe(true);

    writeFileSync(path.join(workspace, 'one.txt'), 'edited by the user\n');
    const forced = await revert(client, { threadId, beforeTurnId: turnOne, force: true });
    expect((forced['fileRestore'] as { environments: { conflicts: string[] }[] }).environments[0]!.conflicts).toEqual([]);
    expect(existsSync(path.join(workspace, 'one.txt'))).toBe(false);
    // two.txt's turn was dropped without its files: nothing restores it any more.
    expect(existsSync(path.join(workspace, 'two.txt'))).toBe(true);
  });

  it('prunes a thread\'s checkpoints when it is archived, and when a stored thread is deleted after a restart', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    model.expect([
      sse(functionCall('exec_command', { cmd: 'printf a > a.txt' }, { callId: 'call_a' }), completed()),
      sse(assistantMessage('A.'), completed()),
      sse(functionCall('exec_command', { cmd: 'printf b > b.txt' }, { callId: 'call_b' }), completed()),
      sse(assistantMessage('B.'), completed()),
    ]);
    const refsOf = (threadId: string) => git(workspace, 'for-each-ref', '--format=%(refname)', `refs/skein/checkpoints/${threadId}/`).trim().split('\n').filter((line) => line !== '');
    const first = await scenario().startServer();
    const client = await scenario().connectTo(first);
    const archived = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const archivedTurn = await runTurn(client, archived, 'A.');
    expect(refsOf(archived)).toEqual([`refs/skein/checkpoints/${archived}/${archivedTurn}/after`, `refs/skein/checkpoints/${archived}/${archivedTurn}/before`]);
    await client.request('thread/archive', { threadId: archived });
    expect(refsOf(archived)).toEqual([]);

    const deleted = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, deleted, 'B.');
    expect(refsOf(deleted)).toHaveLength(2);
    await client.close();
    await first.close();
    const restarted = await scenario().connectTo(await scenario().startServer());
    await restarted.request('thread/delete', { threadId: deleted });
    expect(refsOf(deleted)).toEqual([]);
  });

  it('forks at a turn into a new worktree holding the files that turn left, over the commit HEAD was', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    model.expect([
      sse(functionCall('exec_command', { cmd: 'printf one > a.txt && printf changed > edit.txt' }, { callId: 'call_one' }), completed()),
      sse(assistantMessage('One.'), completed()),
      sse(functionCall('exec_command', { cmd: 'printf two > a.txt && printf b > b.txt' }, { callId: 'call_two' }), completed()),
      sse(assistantMessage('Two.'), completed()),
      sse(assistantMessage('Just talking.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnOne = await runTurn(client, threadId, 'One.');
    await runTurn(client, threadId, 'Two.');
    const userState = userGitState(workspace);
    const dest = path.join(path.dirname(workspace), 'forked');

    const forked = (await client.request('thread/fork', { threadId, lastTurnId: turnOne, worktree: { path: dest } })) as { thread: { id: string }; cwd: string; worktree: { path: string; commit: string } };

    expect(forked.worktree.path).toBe(dest);
    expect(forked.cwd).toBe(dest);
    expect(readFileSync(path.join(dest, 'a.txt'), 'utf8')).toBe('one');
    expect(readFileSync(path.join(dest, 'edit.txt'), 'utf8')).toBe('changed');
    expect(existsSync(path.join(dest, 'b.txt'))).toBe(false);
    // The worktree sits on the user's commit; the turn's work shows as changes, untracked files stay untracked.
    expect(git(dest, 'rev-parse', 'HEAD')).toBe(git(workspace, 'rev-parse', 'HEAD'));
    expect(git(dest, 'status', '--porcelain').split('\n').filter((line) => line !== '').sort()).toEqual([' M edit.txt', '?? a.txt', '?? staged.txt']);
    // The source's files and the user's git state are as they were.
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('two');
    expect(userGitState(workspace)).toBe(userState);
    expect(client.schemaFailures).toEqual([]);

    // A thread that never wrote has no checkpoint to start a worktree from.
    const talker = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, talker, 'Talk.');
    await expect(client.request('thread/fork', { threadId: talker, worktree: {} })).rejects.toThrow(/-32600: Invalid request: no checkpoint on this machine records the files at the fork point/);
  });

  it('warns once per thread of untracked files too large to checkpoint, and never of ignored ones', async () => {
    const { home, model } = scenario();
    scenario().configure({ after: '\n[skein.checkpoints]\nmax_file_bytes = 1024\n' });
    const workspace = home.workspace;
    userRepository(workspace);
    writeFileSync(path.join(workspace, 'dataset.csv'), 'x'.repeat(4096));
    writeFileSync(path.join(workspace, 'node_modules', 'dep', 'big.js'), 'y'.repeat(4096));
    model.expect([
      sse(functionCall('exec_command', { cmd: 'printf a > a.txt' }, { callId: 'call_a' }), completed()),
      sse(assistantMessage('A.'), completed()),
      sse(functionCall('exec_command', { cmd: 'printf b > b.txt' }, { callId: 'call_b' }), completed()),
      sse(assistantMessage('B.'), completed()),
    ]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    await runTurn(client, threadId, 'A.');
    await runTurn(client, threadId, 'B.');
    const warnings = client.notificationsOf('warning').map((params) => (params as { message: string }).message);
    expect(warnings).toEqual(["checkpoints on 'local' leave out 1 untracked entry over their size limits (dataset.csv); a revert cannot restore it"]);
  });

  it('loads a stored thread to revert it after a restart, and restores its files', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    const initial = fileHashes(workspace);
    model.expect([sse(customToolCall('apply_patch', PATCH_ONE, { callId: 'call_patch' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const first = await scenario().startServer();
    const client = await scenario().connectTo(first);
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const turnId = await runTurn(client, threadId, 'Change.');
    await client.close();
    await first.close();

    const restarted = await scenario().connectTo(await scenario().startServer());
    const answer = (await restarted.request('thread/revert', { threadId, beforeTurnId: turnId })) as { thread: { id: string; turns: unknown[] } };

    expect(answer.thread).toMatchObject({ id: threadId, turns: [] });
    expect(fileHashes(workspace)).toEqual(initial);
    const { data } = (await restarted.request('thread/turns/list', { threadId, itemsView: 'full' })) as { data: { items: { type: string }[] }[] };
    // Only the restore's own turn is left, holding its file change.
    expect(data.map((turn) => turn.items.map((item) => item.type))).toEqual([['fileChange']]);
  });

  it('interrupts a running turn to revert it, as Codex does, and restores what it wrote so far', async () => {
    const { home, model } = scenario();
    const workspace = home.workspace;
    userRepository(workspace);
    const initial = fileHashes(workspace);
    model.expect([sse(functionCall('exec_command', { cmd: 'printf x > x.txt && sleep 30', yield_time_ms: 30_000 }, { callId: 'call_sleep' }), completed())]);
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { sandbox: 'danger-full-access' });
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Write, then wait.', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    while (!existsSync(path.join(workspace, 'x.txt'))) await new Promise((resolve) => setTimeout(resolve, 20));

    const answer = await revert(client, { threadId, beforeTurnId: turn.id });

    expect(client.notificationsOf('turn/completed').map((params) => (params as { turn: { id: string; status: string } }).turn)).toContainEqual(expect.objectContaining({ id: turn.id, status: 'interrupted' }));
    expect(answer['thread']).toMatchObject({ status: { type: 'idle' }, turns: [] });
    expect(fileHashes(workspace)).toEqual(initial);
  });
});
