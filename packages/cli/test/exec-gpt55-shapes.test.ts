// `skein exec` on gpt-5.5 against Codex 0.171.0's a2, b2 and c2 transcripts reduced to their shape:
// each request's input items by type, role and leading tag (the `<tools>` part naming
// multi_agent_v1 included), and the ten tools in Codex's order.
import { assistantMessage, completed, customToolCall, functionCall, sse, type CapturedRequest } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';
import { itemShape, toolName } from './support/request-shape.js';

let fixture: ExecScratch;

beforeEach(async () => {
  fixture = await execScratch('skein-exec-gpt55-');
});
afterEach(() => fixture.cleanup());

const CONTEXT = ['developer:text', 'developer:<permissions instructions>+<tools>', 'user:<environment_context>', 'user:text'];
const TOOLS = ['exec_command', 'write_stdin', 'request_user_input', 'apply_patch', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search'];

/** Each request as its input shapes (skills depend on what is installed) and its tool names. */
const shapes = () =>
  fixture.server.requests.map((request: CapturedRequest) => ({
    input: (request.body!.input as unknown as Record<string, unknown>[]).map((item) => itemShape(item).replace('<skills_instructions>+', '')),
    tools: (request.body!.tools as { type: string; name?: string }[]).map(toolName),
  }));

describe("skein exec on gpt-5.5, in Codex's request shape", () => {
  it('a2: a plain reply', async () => {
    fixture.server.expect([sse(assistantMessage('Hello!'), completed())]);
    expect((await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'Say hello.'])).code).toBe(0);
    expect(shapes()).toEqual([{ input: CONTEXT, tools: TOOLS }]);
  });

  it('b2: a command, and its output', async () => {
    fixture.server.expect([sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()), sse(assistantMessage('It printed hi.'), completed())]);
    expect((await fixture.skein(['exec', '--json', '--skip-git-repo-check', 'Run `echo hi` and tell me what it printed.'])).code).toBe(0);
    expect(shapes()).toEqual([
      { input: CONTEXT, tools: TOOLS },
      { input: [...CONTEXT, 'function_call:.exec_command', 'function_call_output:string'], tools: TOOLS },
    ]);
  });

  it('c2: a patch, and its output', async () => {
    fixture.server.expect([sse(customToolCall('apply_patch', "*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n*** End Patch\n"), completed()), sse(assistantMessage('Created.'), completed())]);
    expect((await fixture.skein(['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', "Create hello.txt containing 'Hello, world!'."])).code).toBe(0);
    expect(shapes()).toEqual([
      { input: CONTEXT, tools: TOOLS },
      { input: [...CONTEXT, 'custom_tool_call:apply_patch', 'custom_tool_call_output:string'], tools: TOOLS },
    ]);
  });
});
