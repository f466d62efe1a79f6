// Hooks an executor's project declares (its `.codex/hooks.json`, read through the executor's file
// system) run on that executor, against a real exec-server: the hook sees the executor's own
// variables and works in its cwd; it needs the user's trust like any hook; the client sees the run
// with the environment's id in hooks/list.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hookHash } from '@skein/hooks';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { EXEC_TOKEN, MARKER } from './support/exec-servers.js';
import { useExecutorScenario } from './support/executor-scenario.js';

const scenario = useExecutorScenario();

// Records where it ran and what it read, and blocks `rm`.
const GUARD = `input=$(cat); printf '%s' "$input" > hook-input.json; echo "$${MARKER}" > hook-ran-on.txt; case "$input" in *'"rm '*) echo "no rm on the executor" >&2; exit 2;; esac`;

/** An executor with a project whose `.codex/hooks.json` declares the guard; `trusted` writes the user's trust for it. */
async function executorProject(trusted: boolean): Promise<{ readonly url: string; readonly project: string; readonly key: string }> {
  const { home, model } = scenario();
  const executor = await scenario().startExecutor('executor');
  const project = path.join(executor.root, 'project');
  mkdirSync(path.join(project, '.codex'), { recursive: true });
  const hooksJson = path.join(project, '.codex', 'hooks.json');
  writeFileSync(hooksJson, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] } }));
  const key = `environment:remote:${hooksJson}:pre_tool_use:0:0`;
  const hash = hookHash({ event: 'preToolUse', matcher: 'Bash', handler: { type: 'command', command: GUARD, async: false }, timeoutSec: 600, statusMessage: null });
  if (trusted) writeFileSync(path.join(home.home, 'config.toml'), `${mockProviderConfigToml(model.url)}\n[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`);
  return { url: executor.url, project, key };
}

async function runOnExecutor(url: string, project: string): Promise<{ readonly client: AppServerTestClient; readonly threadId: string }> {
  const client = await scenario().connect();
  await client.request('environment/add', { environmentId: 'remote', execServerUrl: url, authBearerToken: EXEC_TOKEN });
  const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: project }] })) as { thread: { id: string } };
  const { turn } = (await client.request('turn/start', { threadId: started.thread.id, input: [{ type: 'text', text: 'Clean up.', text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
  return { client, threadId: started.thread.id };
}

describe("an executor's project hooks", () => {
  it('run on that executor, in its cwd, with its variables, and block a command there', async () => {
    const { model } = scenario();
    const { url, project, key } = await executorProject(true);
    writeFileSync(path.join(project, 'victim.txt'), 'keep me\n');
    model.expect([sse(functionCall('exec_command', { cmd: 'rm -f victim.txt' }, { callId: 'call_rm' }), completed()), sse(assistantMessage('Blocked.'), completed())]);
    const { client, threadId } = await runOnExecutor(url, project);

    expect(readFileSync(path.join(project, 'victim.txt'), 'utf8')).toBe('keep me\n');
    // The marker variable exists only in the exec-server's processes.
    expect(readFileSync(path.join(project, 'hook-ran-on.txt'), 'utf8')).toBe('executor\n');
    expect(JSON.parse(readFileSync(path.join(project, 'hook-input.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -f victim.txt' }, cwd: project });
    expect(model.requests[1]!.toolOutputText('call_rm')).toBe('Command blocked by PreToolUse hook: no rm on the executor. Command: rm -f victim.txt');
    const listed = (await client.request('hooks/list', { threadId })) as { data: { hooks: { key: string; environmentId: string | null; trustStatus: string }[] }[] };
    expect(listed.data.flatMap((entry) => entry.hooks)).toEqual([expect.objectContaining({ key, environmentId: 'remote', trustStatus: 'trusted' })]);
    expect(client.schemaFailures).toEqual([]);
  });

  it('never run untrusted', async () => {
    const { model } = scenario();
    const { url, project } = await executorProject(false);
    model.expect([sse(functionCall('exec_command', { cmd: 'touch made.txt' }, { callId: 'call_touch' }), completed()), sse(assistantMessage('Done.'), completed())]);
    await runOnExecutor(url, project);
    expect(existsSync(path.join(project, 'hook-ran-on.txt'))).toBe(false);
    expect(existsSync(path.join(project, 'made.txt'))).toBe(true);
  });
});
