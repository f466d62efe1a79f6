// Conformance with Codex 0.171.0's app-server protocol: messages built with our schemas must validate
// against Codex's generated JSON Schema (a committed copy, doc strings removed), and the messages Codex
// itself sent in a recorded session must parse with our schemas.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appServerSchema } from '@skein/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CODEX_CLIENT_REQUEST_METHODS,
  ClientRequest,
  ConfigReadResponse,
  ConfigRequirementsReadResponse,
  ExperimentalFeatureListResponse,
  FsGetMetadataResponse,
  FsReadDirectoryResponse,
  GetAccountResponse,
  SkillsListResponse,
  InitializeResponse,
  ModelListResponse,
  ResponseItem,
  ServerNotification,
  ThreadStartResponse,
  TurnStartResponse,
  UserInput,
  parseJsonRpcMessage,
} from '../src/index.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const THREAD_ID = '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d';
const TURN_ID = '0192f0e6-7c1b-7b7e-8d2a-0c9e8b7a6f5e';

// The schema (a committed copy of Codex's, kept by @skein/test-support) is compiled once per
// process; ClientRequest alone unions every method's params and takes seconds on a loaded machine.
const DEFINITIONS = ['ClientRequest', 'ServerNotification', 'InitializeResponse', 'v2/ThreadStartResponse', 'v2/TurnStartResponse', 'v2/ResponseItem', 'v2/UserInput'];

function expectValid(definition: string, value: unknown): void {
  const errors = appServerSchema().errors(definition, value);
  expect(errors, `${definition}: ${errors.join('; ')}`).toEqual([]);
}

function isValid(definition: string, value: unknown): boolean {
  return appServerSchema().errors(definition, value).length === 0;
}

beforeAll(() => {
  for (const definition of DEFINITIONS) appServerSchema().errors(definition, null);
}, 120_000);

const thread = {
  id: THREAD_ID,
  sessionId: THREAD_ID,
  preview: '',
  ephemeral: false,
  projectId: null,
  modelProvider: 'mock',
  model: 'gpt-5.5',
  createdAt: 1764500000,
  updatedAt: 1764500000,
  status: { type: 'idle' },
  path: '/home/u/.codex/sessions/2026/11/30/rollout-2026-11-30T11-00-00-' + THREAD_ID + '.jsonl',
  cwd: '/work/ws',
  cliVersion: '0.1.0',
  originator: 'skein_test',
  source: 'vscode',
  historyMode: 'paginated',
  turns: [],
};
const turn = { id: TURN_ID, items: [], itemsView: 'notLoaded', status: 'inProgress' };

describe('messages built with our schemas validate against Codex 0.171.0', () => {
  it('client requests: initialize, thread/start, turn/start', () => {
    const requests = [
      { id: 0, method: 'initialize', params: { clientInfo: { name: 'skein_test', version: '1.0.0' } } },
      { id: 1, method: 'thread/start', params: { cwd: '/work/ws', approvalPolicy: 'never', sandbox: 'workspace-write' } },
      {
        id: 'two',
        method: 'turn/start',
        params: {
          threadId: THREAD_ID,
          input: [
            { type: 'text', text: 'hello' },
            { type: 'image', url: 'https://example.com/a.png' },
            { type: 'localImage', path: '/tmp/a.png' },
            { type: 'skill', name: 'greeter', path: '/home/u/.codex/skills/greeter/SKILL.md' },
            { type: 'mention', name: 'app', path: 'app://x' },
          ],
          approvalPolicy: { granular: { sandbox_approval: true, rules: true, mcp_elicitations: false } },
          sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/work/ws'] },
          effort: 'high',
        },
      },
    ];
    for (const request of requests) expectValid('ClientRequest', ClientRequest.parse(request));
  });

  it('responses: initialize, thread/start, turn/start', () => {
    expectValid(
      'InitializeResponse',
      InitializeResponse.parse({ userAgent: 'skein_test/0.1.0', codexHome: '/home/u/.codex', platformFamily: 'unix', platformOs: 'linux' }),
    );
    expectValid(
      'v2/ThreadStartResponse',
      ThreadStartResponse.parse({
        thread,
        model: 'gpt-5.5',
        modelProvider: 'mock',
        cwd: '/work/ws',
        approvalPolicy: 'never',
        approvalsReviewer: 'user',
        sandbox: { type: 'workspaceWrite' },
      }),
    );
    expectValid('v2/TurnStartResponse', TurnStartResponse.parse({ turn }));
  });

  it('notifications: thread/started, turn/started, item/started, item/agentMessage/delta, item/completed, turn/completed', () => {
    const ids = { threadId: THREAD_ID, turnId: TURN_ID };
    const notifications = [
      { method: 'thread/started', params: { thread } },
      { method: 'turn/started', params: { threadId: THREAD_ID, turn } },
      {
        method: 'item/started',
        params: { ...ids, startedAtMs: 1764500000001, item: { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'hi' }] } },
      },
      {
        method: 'item/started',
        params: { ...ids, startedAtMs: 1764500000002, item: { type: 'agentMessage', id: 'msg_1', text: '', phase: 'final_answer' } },
      },
      { method: 'item/agentMessage/delta', params: { ...ids, itemId: 'msg_1', delta: 'Hel' } },
      {
        method: 'item/completed',
        params: { ...ids, completedAtMs: 1764500000003, item: { type: 'reasoning', id: 'rs_1', summary: ['plan'] } },
      },
      {
        method: 'item/completed',
        params: { ...ids, completedAtMs: 1764500000004, item: { type: 'agentMessage', id: 'msg_1', text: 'Hello' } },
      },
      {
        method: 'turn/completed',
        params: {
          threadId: THREAD_ID,
          turn: { ...turn, status: 'completed', itemsView: 'summary', items: [{ type: 'agentMessage', id: 'msg_1', text: 'Hello' }] },
        },
      },
      {
        method: 'turn/completed',
        params: { threadId: THREAD_ID, turn: { ...turn, status: 'failed', error: { message: 'model unavailable' } } },
      },
    ];
    for (const notification of notifications) expectValid('ServerNotification', ServerNotification.parse(notification));
  });

  it('results of the app-server methods outside threads: fs, config/read, model/list, experimentalFeature/list', () => {
    expectValid('v2/FsGetMetadataResponse', FsGetMetadataResponse.parse({ isDirectory: false, isFile: true, isSymlink: false, createdAtMs: 0, modifiedAtMs: 1 }));
    expectValid('v2/FsReadDirectoryResponse', FsReadDirectoryResponse.parse({ entries: [{ fileName: 'a', isDirectory: false, isFile: true }] }));
    expectValid(
      'v2/ConfigReadResponse',
      ConfigReadResponse.parse({
        config: { model: 'gpt-5.5' },
        origins: { model: { name: { type: 'user', file: '/home/u/.codex/config.toml', profile: null }, version: 'sha256:00' } },
        layers: [
          { name: { type: 'sessionFlags' }, version: 'sha256:01', config: {} },
          { name: { type: 'project', dotCodexFolder: '/work/ws/.codex' }, version: 'sha256:02', config: {} },
        ],
      }),
    );
    expectValid(
      'v2/ModelListResponse',
      ModelListResponse.parse({
        data: [
          {
            id: 'gpt-5.5', model: 'gpt-5.5', upgrade: null, upgradeInfo: null, availabilityNux: null, displayName: 'GPT-5.5',
            description: 'd', modelSpecialty: null, hidden: false, supportedReasoningEfforts: [{ reasoningEffort: 'low', description: 'l' }],
            defaultReasoningEffort: 'medium', inputModalities: ['text', 'image'], supportsPersonality: false, multiAgentVersion: null,
            additionalSpeedTiers: [], serviceTiers: [], defaultServiceTier: null, availableAccessPrograms: null, isDefault: true,
          },
        ],
        nextCursor: null,
      }),
    );
    expectValid(
      'v2/ExperimentalFeatureListResponse',
      ExperimentalFeatureListResponse.parse({
        data: [{ name: 'x', stage: 'beta', displayName: 'X', description: 'd', announcement: '', enabled: false, defaultEnabled: false }],
        nextCursor: '1',
      }),
    );
  });

  it('results of account/read and configRequirements/read as Codex answers them with nobody signed in', () => {
    expectValid('v2/GetAccountResponse', GetAccountResponse.parse({ account: null, userId: null, requiresOpenaiAuth: false, workspaceRouting: null }));
    expectValid('v2/GetAccountResponse', GetAccountResponse.parse({ account: { type: 'apiKey' }, userId: null, requiresOpenaiAuth: true, workspaceRouting: null }));
    expectValid('v2/ConfigRequirementsReadResponse', ConfigRequirementsReadResponse.parse({ requirements: null, supportsIndependentSpeedModes: true }));
  });

  it('results of skills/list: an entry without skills, and one with a system skill as Codex lists its bundled ones', () => {
    expectValid('v2/SkillsListResponse', SkillsListResponse.parse({ data: [{ cwd: '/work', skills: [], errors: [] }] }));
    expectValid(
      'v2/SkillsListResponse',
      SkillsListResponse.parse({
        data: [
          {
            cwd: '.',
            skills: [{ name: 'imagegen', description: 'Generate images', path: '/home/.codex/skills/.system/imagegen/SKILL.md', scope: 'system', enabled: true, pluginId: null }],
            errors: [{ path: '/work/.codex/skills/broken/SKILL.md', message: 'missing front matter' }],
          },
        ],
      }),
    );
  });

  it('CODEX_CLIENT_REQUEST_METHODS lists exactly the methods of Codex\'s ClientRequest, in order', () => {
    expect(CODEX_CLIENT_REQUEST_METHODS).toEqual(appServerSchema().clientRequestMethods);
  });

  it('response items and user input', () => {
    const items = [
      { type: 'message', id: 'msg_1', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'function_call', id: 'fc_1', name: 'exec_command', arguments: '{}', call_id: 'c1', metadata: { turn_id: TURN_ID } },
      { type: 'function_call_output', id: 'fco_1', call_id: 'c1', output: 'ok', metadata: { source_call_id: 'c1' } },
      { type: 'custom_tool_call', name: 'apply_patch', input: 'x', call_id: 'c2' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'done' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 's' }] },
      { type: 'local_shell_call', status: 'completed', action: { type: 'exec', command: ['ls'] } },
      { type: 'web_search_call', status: 'completed' },
      { type: 'compaction', encrypted_content: 'e' },
      { type: 'additional_tools', role: 'developer', tools: [] },
    ];
    for (const item of items) expectValid('v2/ResponseItem', ResponseItem.parse(item));
    expectValid('v2/UserInput', UserInput.parse({ type: 'text', text: 'x' }));
  });

  it('the check has teeth: shapes Codex does not accept are rejected', () => {
    expect(isValid('ServerNotification', { method: 'turn/started', params: { threadId: THREAD_ID } })).toBe(false);
    expect(isValid('ClientRequest', { id: 1, method: 'turn/start', params: { input: [] } })).toBe(false);
    expect(isValid('v2/ResponseItem', { type: 'function_call', name: 'f' })).toBe(false);
  });
});

/** Replaces the recording's placeholders with concrete values of the right JSON type. */
function denormalize(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value === '<TIME>') return 1764500000;
    if (value === '<DURATION>') return 1234;
    const uuid = /^<UUID:(\d+)>$/.exec(value);
    if (uuid) return `0192f0e6-7c1a-7b7e-9d2a-${uuid[1]!.padStart(12, '0')}`;
    return value.replaceAll('<WORKSPACE>', '/work/ws').replaceAll('<CODEX_HOME>', '/home/u/.codex');
  }
  if (Array.isArray(value)) return value.map(denormalize);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, denormalize(inner)]));
  }
  return value;
}

describe('messages Codex 0.171.0 sent in a recorded app-server session', () => {
  const recording = JSON.parse(readFileSync(path.join(fixtures, 'codex-app-server-turn.messages.json'), 'utf8')) as {
    messages: { dir: 'send' | 'recv'; msg: unknown }[];
  };
  const messages = recording.messages.map(({ dir, msg }) => ({ dir, msg: denormalize(msg) as Record<string, unknown> }));

  it('are valid against the committed schema once placeholders are filled', () => {
    for (const { dir, msg } of messages) {
      if (dir === 'send' && 'id' in msg) expectValid('ClientRequest', msg);
      if (dir === 'recv' && 'method' in msg) expectValid('ServerNotification', msg);
    }
  });

  it('parse with our schemas: every request we model and every notification we model', () => {
    const modelledRequests = new Set(['initialize', 'thread/start', 'turn/start']);
    const modelledNotifications = new Set<string>(ServerNotification.options.map((option) => option.shape.method.value));
    const seen = new Set<string>();
    for (const { msg } of messages) {
      const envelope = parseJsonRpcMessage(msg);
      if (envelope.kind === 'request' && modelledRequests.has(envelope.message.method)) {
        ClientRequest.parse(msg);
        seen.add(envelope.message.method);
      }
      if (envelope.kind === 'notification' && modelledNotifications.has(envelope.message.method)) {
        ServerNotification.parse(msg);
        seen.add(envelope.message.method);
      }
    }
    expect([...seen].sort()).toEqual(
      ['initialize', 'item/agentMessage/delta', 'item/completed', 'item/started', 'thread/start', 'thread/started', 'turn/completed', 'turn/start', 'turn/started'],
    );
  });

  it('parse the responses to initialize, thread/start and turn/start', () => {
    const result = (id: number) => messages.find(({ msg }) => msg.id === id && 'result' in msg)?.msg.result;
    expect(InitializeResponse.parse(result(1)).platformFamily).toBe('unix');
    expect(ThreadStartResponse.parse(result(2)).sandbox).toEqual({
      type: 'workspaceWrite',
      writableRoots: [],
      networkAccess: false,
      excludeTmpdirEnvVar: false,
      excludeSlashTmp: false,
    });
    expect(TurnStartResponse.parse(result(3)).turn.status).toBe('inProgress');
  });
});
