// Multi-agent v1 against the mock model, as Codex 0.171.0 offers it to gpt-5.5 (probed): the
// `multi_agent_v1` namespace behind tool_search and named in the `<tools>` part; an agent named by
// its thread id that takes its task as a user message, has no sub-agent tools of its own, and tells
// its parent each end as a `<subagent_notification>`; send_input, close_agent, resume_agent, and the
// refusal of an id that is not one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, replyTo, routed, sse, toolSearchCall, type CapturedRequest } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../src/index.js';
import { startTestThread } from '../src/testing/index.js';
import { useMockWorkspace } from './support/mock-workspace.js';
import { say, withoutDescriptions } from './support/tool-thread.js';

const RECORDED = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'codex-multi-agent-v1-tools.json'), 'utf8')) as { namespace: unknown; tools: { name: string }[] };

const scenario = useMockWorkspace();

const v1 = (name: string, args: Record<string, unknown>, callId: string) => functionCall(name, args, { namespace: 'multi_agent_v1', callId });
const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
type Item = Record<string, unknown> & { type: string };
const inputOf = (request: CapturedRequest) => request.body!.input as unknown as Item[];
const outputOf = (request: CapturedRequest, callId: string) => inputOf(request).find((item) => item['call_id'] === callId && item.type.endsWith('_output'))?.['output'];
/** The id spawn_agent answered, read from the request that carries its output. */
const spawnedId = (request: CapturedRequest) => (JSON.parse(outputOf(request, 'call_spawn') as string) as { agent_id: string }).agent_id;
const textOf = (item: Item | undefined) => (item?.['content'] as { text: string }[] | undefined)?.map((part) => part.text).join('') ?? '';
const collabItems = (events: readonly CoreEvent[]) =>
  events.flatMap((event) => (event.type === 'turnItem' && event.phase === 'completed' && event.item.kind === 'collabAgentToolCall' ? [[event.item.tool, event.item.status]] : []));

async function rootThread(overrides: readonly string[] = []) {
  return startTestThread(scenario.workspace, { modelUrl: scenario.server.url, hostEnv: process.env, overrides: ['approval_policy="never"', ...overrides] });
}

describe('multi-agent v1', () => {
  it('is found with tool_search, spawns an agent by id, waits for it, gives it more input, closes and reopens it', async () => {
    scenario.server.expect([
      sse(toolSearchCall({ query: 'spawn a sub-agent', limit: 8 }, { callId: 'call_search' }), completed()),
      sse(v1('spawn_agent', { message: 'Say hi.' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('hi from child'), completed())),
      replyTo((request) => sse(v1('wait_agent', { targets: [spawnedId(request)], timeout_ms: 20_000 }, 'call_wait'), completed())),
      replyTo((request) => sse(v1('send_input', { target: spawnedId(request), message: 'Again.' }, 'call_send'), completed())),
      routed(isChild, sse(assistantMessage('hi again'), completed())),
      replyTo((request) => sse(v1('wait_agent', { targets: [spawnedId(request)] }, 'call_wait2'), completed())),
      replyTo((request) => sse(v1('close_agent', { target: spawnedId(request) }, 'call_close'), completed())),
      replyTo((request) => sse(v1('resume_agent', { id: spawnedId(request) }, 'call_resume'), completed())),
      sse(v1('wait_agent', { targets: ['nope'] }, 'call_bad'), completed()),
      sse(assistantMessage('All done.'), completed()),
    ]);
    const { thread, events } = await rootThread();
    const outcome = await thread.runTurn(say('Delegate a greeting.'));
    expect(outcome).toMatchObject({ status: 'completed', lastAgentMessage: 'All done.' });

    const root = scenario.server.requests.filter((request) => !isChild(request));
    const children = scenario.server.requests.filter(isChild);
    // Offered as Codex offers it: tool_search in `tools`, the namespace named in the `<tools>` part, no role or mode message.
    expect(root[0]!.toolNames()).toContain('tool_search');
    expect(root[0]!.body!.tools!.filter((tool) => tool.type === 'namespace')).toEqual([]);
    const developer = inputOf(root[0]!).filter((item) => item['role'] === 'developer').map(textOf);
    expect(developer.find((text) => text.includes('<tools>'))).toMatch(/\n- multi_agent_v1: .+\n<\/tools>$/);
    expect(developer.join('\n')).not.toMatch(/<multi_agent_(role|mode)>/);
    // The search loads the namespace, its tools in Codex's schemas.
    const namespace = (inputOf(root[1]!).find((item) => item.type === 'tool_search_output')!['tools'] as Item[])[0]!;
    expect(withoutDescriptions({ type: namespace.type, name: namespace['name'] })).toEqual(RECORDED.namespace);
    const byName = (tools: readonly { name: string }[]) => [...tools].sort((a, b) => a.name.localeCompare(b.name));
    expect(withoutDescriptions(byName(namespace['tools'] as { name: string }[]))).toEqual(withoutDescriptions(byName(RECORDED.tools)));

    // spawn_agent: the child's id and a nickname; the child takes the task as a user message and has no sub-agent tools.
    const id = spawnedId(root[2]!);
    expect(JSON.parse(outputOf(root[2]!, 'call_spawn') as string)).toEqual({ agent_id: id, nickname: expect.any(String) as string });
    expect(inputOf(children[0]!).at(-1)).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hi.' }] });
    expect(children[0]!.toolNames()).not.toContain('tool_search');
    expect(children[0]!.header('x-codex-parent-thread-id')).toBe(thread.threadId);
    expect(JSON.parse(children[0]!.header('x-codex-turn-metadata')!)).toMatchObject({ thread_id: id, parent_thread_id: thread.threadId, subagent_kind: 'thread_spawn', thread_source: 'subagent' });

    // wait_agent answers the status; the end also arrives as a notification after it.
    const last = root.at(-1)!;
    expect(JSON.parse(outputOf(last, 'call_wait') as string)).toEqual({ status: { [id]: { completed: 'hi from child' } }, timed_out: false });
    const notifications = inputOf(last).filter((item) => textOf(item).startsWith('<subagent_notification>')).map(textOf);
    expect(notifications[0]).toBe(`<subagent_notification>\n${JSON.stringify({ agent_path: id, status: { completed: 'hi from child' } })}\n</subagent_notification>`);
    // send_input starts another turn of the idle agent with the input as a user message.
    expect(JSON.parse(outputOf(last, 'call_send') as string)).toEqual({ submission_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string });
    expect(inputOf(children[1]!).at(-1)).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'Again.' }] });
    expect(JSON.parse(outputOf(last, 'call_wait2') as string)).toEqual({ status: { [id]: { completed: 'hi again' } }, timed_out: false });
    expect(JSON.parse(outputOf(last, 'call_close') as string)).toEqual({ previous_status: { completed: 'hi again' } });
    expect(JSON.parse(outputOf(last, 'call_resume') as string)).toEqual({ status: 'pending_init' });
    expect(outputOf(last, 'call_bad')).toBe('invalid agent id nope: not a UUID');
    // Clients see each call as a collaboration item; the refused one failed.
    expect(collabItems(events)).toEqual([
      ['spawnAgent', 'completed'],
      ['wait', 'completed'],
      ['sendInput', 'completed'],
      ['wait', 'completed'],
      ['closeAgent', 'completed'],
      ['resumeAgent', 'completed'],
    ]);
  });

  it('is not offered with the multi_agent feature off, nor beside v2', async () => {
    scenario.server.expect([sse(assistantMessage('a'), completed())]);
    const off = await rootThread(['features.multi_agent=false']);
    await off.thread.runTurn(say('hello'));
    expect(scenario.server.requests[0]!.toolNames()).not.toContain('tool_search');
    expect(JSON.stringify(scenario.server.requests[0]!.body!.input)).not.toContain('multi_agent_v1');

    scenario.server.expect([sse(assistantMessage('b'), completed())]);
    const v2 = await rootThread(['features.multi_agent_v2=true']);
    await v2.thread.runTurn(say('hello'));
    expect(scenario.server.requests[1]!.body!.tools!.filter((tool) => tool.type === 'namespace').map((tool) => (tool as { name: string }).name)).toEqual(['collaboration']);
    expect(JSON.stringify(scenario.server.requests[1]!.body!.input)).not.toContain('multi_agent_v1');
  });
});
