// A thread session end to end against the mock Responses server, with real config files, real
// AGENTS.md files and an example extension that uses every contributor kind.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { ExtensionRegistryBuilder, defineContextFragment, defineExtension, type JsonValue } from '@skein/extension-api';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  DEFAULT_BASE_INSTRUCTIONS,
  ExtensionHost,
  MemoryThreadRecorder,
  ResponsesClient,
  ThreadSession,
  localThreadEnvironment,
  localWorkspaceReader,
  type CoreEvent,
} from '../src/index.js';

let scratch: string;
let home: string;
let repo: string;
let server: MockResponsesServer;

beforeEach(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'skein-session-'));
  home = path.join(scratch, 'home');
  repo = path.join(scratch, 'repo');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(home);
  writeFileSync(path.join(home, 'AGENTS.md'), 'Sign every answer.\n');
  writeFileSync(path.join(repo, 'AGENTS.md'), '# Project rules\n\n- Answer in French.\n');
  server = await startMockResponsesServer();
});
afterEach(async () => {
  // Closing verifies the mock model: no unexpected request, no unused response.
  try {
    await server.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

const NOTES_CATALOG = defineContextFragment({ kind: 'notes.catalog', role: 'developer', open: '<notes_catalog>', close: '</notes_catalog>' });
const TURN_NOTE = defineContextFragment({ kind: 'notes.turn_note', role: 'developer', open: '<turn_note>', close: '</turn_note>', separator: '' });

/** The example extension: a catalog fragment, a per-turn note, skill injection, a tool, a world-state section. */
const notes = defineExtension({
  id: 'notes',
  fragments: [NOTES_CATALOG, TURN_NOTE],
  lifecycle: {
    onThreadStart: ({ thread }) => {
      thread.set('notes', []);
      return Promise.resolve();
    },
  },
  context: {
    threadFragments: () => Promise.resolve([NOTES_CATALOG.render('notes are kept per thread')]),
    turnFragments: ({ session }) => {
      const turns = (session.get('turns', z.number()) ?? 0) + 1;
      session.set('turns', turns);
      return Promise.resolve([TURN_NOTE.render(`turn ${turns}`)]);
    },
  },
  turnInput: {
    contributeTurnInput: ({ input }) =>
      Promise.resolve(
        input
          .filter((part) => part.type === 'skill')
          .map((skill) => ({ type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text: `<skill>\n<name>${skill.name}</name>\n</skill>` }] })),
      ),
  },
  tools: {
    tools: ({ thread }) =>
      Promise.resolve([
        {
          kind: 'function' as const,
          spec: { type: 'function' as const, name: 'note_add', description: 'Keeps a note.', strict: false, parameters: { type: 'object' as const, properties: { text: { type: 'string' } } } },
          arguments: z.object({ text: z.string() }),
          handle: ({ text }: { text: string }) => {
            thread.set('notes', [...(thread.get('notes', z.array(z.string())) ?? []), text]);
            return Promise.resolve({ output: 'noted', success: true });
          },
        },
      ]),
  },
  worldState: [
    {
      sectionId: 'notes',
      snapshot: ({ thread }) => Promise.resolve((thread.get('notes', z.array(z.string())) ?? []) as JsonValue),
      renderChange: (previous, current) =>
        previous === undefined ? undefined : `<notes_changed>${(current as string[]).join(', ')}</notes_changed>`,
    },
  ],
});
const broken = defineExtension({
  id: 'broken',
  context: { threadFragments: () => Promise.reject(new Error('catalog unavailable')) },
});

async function session(events: CoreEvent[]) {
  const { config } = await loadConfig({
    cwd: repo,
    env: {},
    homeDir: home,
    overrides: [`model_providers.mock={ name = "Mock", base_url = "${server.url}", request_max_retries = 0 }`, 'model_provider=mock', 'model="gpt-5.5"', 'sandbox_mode="workspace-write"', 'approval_policy="never"'],
  });
  const recorder = new MemoryThreadRecorder();
  const extensions = new ExtensionHost(new ExtensionRegistryBuilder().add(notes).add(broken).build(), (message) => events.push({ type: 'warning', message }));
  let next = 0;
  const thread = new ThreadSession({
    threadId: '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d',
    config,
    client: new ResponsesClient({ provider: config.modelProvider, env: {} }),
    reader: localWorkspaceReader,
    recorder,
    extensions,
    host: { shell: 'bash', timezone: 'Etc/UTC' },
    // AGENTS.md is read through the thread's environment.
    environment: localThreadEnvironment({ cwd: repo, env: {} }),
    clock: { now: () => new Date('2026-11-30T12:00:00Z'), monotonicMs: () => 0 },
    onEvent: (event) => events.push(event),
    uuid: () => `0192f0e6-7c1a-7b7e-9d2a-${String(++next).padStart(12, '0')}`,
  });
  await extensions.lifecycle('onThreadStart', thread.threadId, repo);
  return { thread, recorder };
}

const texts = (item: Record<string, unknown>) => (item.content as { text: string }[]).map((part) => part.text);

describe('ThreadSession', () => {
  it('sends the initial context in Codex order, runs an extension tool, and then sends only what changed', async () => {
    server.expect([
      sse(functionCall('note_add', { text: 'buy milk' }), completed()),
      sse(assistantMessage('Noté.'), completed()),
      sse(assistantMessage('Encore noté.'), completed()),
    ]);
    const events: CoreEvent[] = [];
    const { thread, recorder } = await session(events);

    const first = await thread.runTurn([{ type: 'text', text: 'Note: buy milk', text_elements: [] }, { type: 'skill', name: 'greeter', path: '/skills/greeter/SKILL.md' }]);
    expect(first).toEqual({ status: 'completed', lastAgentMessage: 'Noté.' });

    const input = server.requests[0]!.body!.input as Record<string, unknown>[];
    expect(input.map((item) => [item.type, item.role])).toEqual([
      ['message', 'developer'],
      ['message', 'developer'],
      ['message', 'user'],
      ['message', 'developer'],
      ['message', 'user'],
      ['message', 'user'],
    ]);
    expect(texts(input[0]!)).toEqual([DEFAULT_BASE_INSTRUCTIONS]);
    expect(texts(input[1]!).map((text) => text.split('\n')[0])).toEqual(['<notes_catalog>', '<permissions instructions>']);
    expect(texts(input[1]!)[1]).toContain('workspace-write');
    expect(texts(input[2]!)).toEqual([
      `# AGENTS.md instructions for ${repo}\n\n<INSTRUCTIONS>\nSign every answer.\n\n--- project-doc ---\n\n# Project rules\n\n- Answer in French.\n\n</INSTRUCTIONS>`,
      expect.stringContaining(`<entry access="write"><path>${repo}</path></entry>`) as string,
    ]);
    expect(texts(input[3]!)).toEqual(['<turn_note>turn 1</turn_note>']);
    expect(texts(input[4]!)).toEqual(['Note: buy milk']);
    expect(texts(input[5]!)).toEqual(['<skill>\n<name>greeter</name>\n</skill>']);
    expect(input.every((item) => typeof item.id === 'string' && (item.id).startsWith('msg_'))).toBe(true);
    // The environment's built-in tools, then the extension's.
    expect(server.requests[0]!.toolNames()).toEqual(['exec_command', 'write_stdin', 'request_user_input', 'apply_patch', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'note_add', 'web_search']);
    expect(server.requests[1]!.toolOutput('call_mock_0002')).toMatchObject({ output: 'noted' });
    expect(events.filter((event) => event.type === 'warning')).toEqual([{ type: 'warning', message: "extension 'broken' failed in context: catalog unavailable" }]);

    await thread.runTurn([{ type: 'text', text: 'And again', text_elements: [] }]);
    const second = server.requests[2]!.body!.input as Record<string, unknown>[];
    const added = second.slice((server.requests[1]!.body!.input as unknown[]).length + 1);
    // The tool's change reached the model in its own turn, right after the tool's output; the next turn only adds its own.
    const afterTool = server.requests[1]!.body!.input as Record<string, unknown>[];
    expect(afterTool.slice(-2).map((item) => [item.type, item.type === 'message' ? texts(item)[0] : null])).toEqual([['function_call_output', null], ['message', '<notes_changed>buy milk</notes_changed>']]);
    expect(added.map((item) => texts(item)[0])).toEqual(['<turn_note>turn 2</turn_note>', 'And again']);
    expect(second.filter((item) => item.type === 'message' && texts(item).some((text) => text.startsWith('<environment_context>')))).toHaveLength(1);

    expect(recorder.lines.filter((line) => line.kind === 'turnContext')).toHaveLength(2);
    expect(recorder.lines.filter((line) => line.kind === 'worldState').map((line) => line.kind === 'worldState' && line.sections)).toEqual([
      [{ sectionId: 'notes', snapshot: [] }],
      [{ sectionId: 'notes', snapshot: ['buy milk'] }],
    ]);
    expect(recorder.flushes).toBe(2);
  });

  it('refuses a second turn while one runs, and steers the running one instead', async () => {
    server.expect([sse(assistantMessage('after steer'), completed())]);
    const { thread } = await session([]);
    const running = thread.runTurn([{ type: 'text', text: 'one', text_elements: [] }]);
    await expect(thread.runTurn([{ type: 'text', text: 'two', text_elements: [] }])).rejects.toMatchObject({ code: 'TurnInProgress' });
    await thread.steer([{ type: 'text', text: 'also this', text_elements: [] }]);
    expect(await running).toEqual({ status: 'completed', lastAgentMessage: 'after steer' });
    // As Codex: input steered in before the turn's first request joins that request.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.messageTexts('user').slice(-2)).toEqual(['one', 'also this']);
    expect(() => thread.interrupt()).toThrow(/no turn is running/);
  });
});
