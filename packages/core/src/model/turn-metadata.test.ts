import { describe, expect, it } from 'vitest';
import { sandboxTag, turnRequestMetadata, type TurnIdentity } from './turn-metadata.js';

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
    // Codex's order (the client adds accept, content-type and authorization before originator).
    expect(Object.keys(headers)).toEqual(['x-codex-beta-features', 'x-codex-window-id', 'x-codex-turn-metadata', 'x-client-request-id', 'session-id', 'thread-id', 'originator', 'user-agent']);
    expect(headers['x-codex-beta-features']).toBe('remote_compaction_v2');
    expect(headers['x-codex-window-id']).toBe('t-1:0');
    expect(JSON.parse(headers['x-codex-turn-metadata']!)).toMatchObject({ thread_id: 't-1', turn_id: 'u-1', request_kind: 'turn', thread_source: 'user', window_number: 0 });
    expect(Object.keys(clientMetadata).sort()).toEqual(['root_turn_id', 'session_id', 'thread_id', 'turn_id', 'x-codex-turn-metadata', 'x-codex-window-id']);
  });

  it('lists the beta features that are on with remote_compaction_v2, sorted', () => {
    const { headers } = turnRequestMetadata({ ...identity, betaFeatures: ['zeta', 'memories', 'remote_compaction_v2'] });
    expect(headers['x-codex-beta-features']).toBe('memories,remote_compaction_v2,zeta');
  });

  it('leaves out the thread source and trigger no one named, and the installation id the host did not read', () => {
    const { threadSource: _source, ...anonymous } = identity;
    const metadata = JSON.parse(turnRequestMetadata(anonymous).headers['x-codex-turn-metadata']!) as Record<string, unknown>;
    expect(metadata).not.toHaveProperty('thread_source');
    expect(metadata).not.toHaveProperty('turn_trigger');
    expect(metadata).not.toHaveProperty('installation_id');
    const named = turnRequestMetadata({ ...identity, installationId: 'i-1', turnTrigger: 'exec' });
    expect(JSON.parse(named.headers['x-codex-turn-metadata']!)).toMatchObject({ installation_id: 'i-1', turn_trigger: 'exec' });
    expect(named.clientMetadata['x-codex-installation-id']).toBe('i-1');
  });

  it('names the platform sandbox as Codex does, none with full access', () => {
    expect(sandboxTag('read-only', 'linux')).toBe('seccomp');
    expect(sandboxTag('workspace-write', 'darwin')).toBe('seatbelt');
    expect(sandboxTag('workspace-write', 'win32')).toBe('windows_sandbox');
    expect(sandboxTag('danger-full-access', 'linux')).toBe('none');
  });

  it("adds a client's keys to the turn metadata after Codex's own and before the model's, never over a key Codex sets (probed)", () => {
    const { headers, clientMetadata } = turnRequestMetadata({
      ...identity,
      extraClientMetadata: { team: 'infra', 'x-codex-turn-metadata': 'evil', thread_id: 'spoofed', thread_source: 'subagent', turn_id: 'evil', model: 'evil' },
    });
    const turnMetadata = JSON.parse(headers['x-codex-turn-metadata']!) as Record<string, unknown>;
    expect(turnMetadata).toMatchObject({ team: 'infra', thread_id: 't-1', thread_source: 'user', turn_id: identity.turnId, model: identity.model });
    // Nor may it add a key of Codex's own headers.
    expect(turnMetadata).not.toHaveProperty('x-codex-turn-metadata');
    const keys = Object.keys(turnMetadata);
    expect(keys.indexOf('team')).toBe(keys.indexOf('analytics_enabled') + 1);
    expect(keys.at(-2)).toBe('model');
    // The body's copy is the header's; the client's keys do not reach client_metadata's top level.
    expect(clientMetadata['x-codex-turn-metadata']).toBe(headers['x-codex-turn-metadata']);
    expect(clientMetadata['team']).toBeUndefined();
    expect(clientMetadata['thread_id']).toBe('t-1');
  });

  it("escapes a client's non-ASCII text so the header stays sendable, and caps what a client adds", () => {
    const { headers } = turnRequestMetadata({ ...identity, extraClientMetadata: { note: 'café ☕', big: 'x'.repeat(10_000) } });
    const header = headers['x-codex-turn-metadata']!;
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
    expect(JSON.parse(header)).toMatchObject({ note: 'café ☕' });
    expect(JSON.parse(header)).not.toHaveProperty('big');
  });
});
