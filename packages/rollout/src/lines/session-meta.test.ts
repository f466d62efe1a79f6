import { describe, expect, it } from 'vitest';
import { SessionMeta, parentThreadIdOf, sessionIdOf, sourceKindOf } from './session-meta.js';

const ID = '01a22c4d-ffd3-7ce3-89c0-3f95d4b0798b';
const PARENT = '01a22c4d-0000-7000-8000-000000000009';

describe('SessionMeta', () => {
  it('parses a Codex 0.171.0 header and keeps fields it does not name', () => {
    const raw = {
      account_scoped: true,
      session_id: ID,
      id: ID,
      timestamp: '2026-11-30T11:53:59.000Z',
      cwd: '/workspace',
      runtime_workspace_roots: ['/workspace'],
      originator: 'codex_exec',
      cli_version: '0.171.0',
      source: 'exec',
      thread_source: 'user',
      model_provider: 'mock',
      base_instructions: { text: 'base', provenance: { type: 'model', model: 'gpt-5.5' } },
      history_mode: 'paginated',
      context_window: { window_id: '01a22c4d-ffd8-7221-8a5a-a6acc7ca2691' },
    };
    const meta = SessionMeta.parse(raw);
    expect(meta['account_scoped']).toBe(true);
    expect(meta['context_window']).toEqual(raw.context_window);
    expect(meta.base_instructions).toEqual(raw.base_instructions);
    expect(sessionIdOf(meta)).toBe(ID);
  });

  it('reads a legacy header without session_id as its own root session', () => {
    const meta = SessionMeta.parse({ id: ID, timestamp: 't', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.40.0' });
    expect(sessionIdOf(meta)).toBe(ID);
  });

  it('accepts the UUIDv4 ids of older files', () => {
    expect(SessionMeta.safeParse({ id: '5973b6c0-94b8-487b-a530-2aeb6098ae0e', timestamp: 't', cwd: '/w' }).success).toBe(true);
  });

  it('finds the parent of a sub-agent in the legacy source object', () => {
    const meta = SessionMeta.parse({
      id: ID,
      timestamp: 't',
      cwd: '/w',
      source: { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } },
    });
    expect(parentThreadIdOf(meta)).toBe(PARENT);
    expect(sourceKindOf(meta)).toBe('subagent');
  });

  it('prefers parent_thread_id and names string sources as they are', () => {
    const meta = SessionMeta.parse({ id: ID, timestamp: 't', cwd: '/w', parent_thread_id: PARENT, source: 'vscode' });
    expect(parentThreadIdOf(meta)).toBe(PARENT);
    expect(sourceKindOf(meta)).toBe('vscode');
  });

  it('rejects a header without a cwd or with a malformed id', () => {
    expect(SessionMeta.safeParse({ id: ID, timestamp: 't' }).success).toBe(false);
    expect(SessionMeta.safeParse({ id: 'not-a-uuid', timestamp: 't', cwd: '/w' }).success).toBe(false);
  });
});
