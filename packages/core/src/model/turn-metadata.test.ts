import { describe, expect, it } from 'vitest';
import { turnRequestMetadata, type TurnIdentity } from './turn-metadata.js';

const identity: TurnIdentity = {
  sessionId: 's-1',
  threadId: 't-1',
  turnId: 'u-1',
  rootTurnId: 'u-1',
  windowNumber: 0,
  threadSource: 'user',
  sandboxMode: 'read-only',
  model: 'gpt-5.5',
  reasoningEffort: 'medium',
  turnStartedAtMs: 1764500000000,
  originator: 'skein_exec',
  userAgent: 'skein_exec/0.0.0',
};

describe('turnRequestMetadata', () => {
  it('names headers and client metadata as Codex 0.171.0 does', () => {
    const { headers, clientMetadata } = turnRequestMetadata(identity);
    expect(Object.keys(headers).sort()).toEqual(['originator', 'session-id', 'thread-id', 'user-agent', 'x-client-request-id', 'x-codex-turn-metadata', 'x-codex-window-id']);
    expect(headers['x-codex-window-id']).toBe('t-1:0');
    expect(JSON.parse(headers['x-codex-turn-metadata']!)).toMatchObject({ thread_id: 't-1', turn_id: 'u-1', request_kind: 'turn', thread_source: 'user', window_number: 0 });
    expect(Object.keys(clientMetadata).sort()).toEqual(['root_turn_id', 'session_id', 'thread_id', 'turn_id', 'x-codex-turn-metadata', 'x-codex-window-id']);
  });

  it('keeps a client’s extra metadata but never lets it replace the turn metadata', () => {
    const { headers, clientMetadata } = turnRequestMetadata({
      ...identity,
      extraClientMetadata: { team: 'infra', 'x-codex-turn-metadata': '{"thread_source":"subagent"}', thread_id: 'spoofed' },
    });
    expect(clientMetadata.team).toBe('infra');
    expect(clientMetadata.thread_id).toBe('t-1');
    expect(JSON.parse(clientMetadata['x-codex-turn-metadata']!)).toMatchObject({ thread_source: 'user' });
    expect(JSON.parse(headers['x-codex-turn-metadata']!)).toMatchObject({ thread_source: 'user' });
  });
});
