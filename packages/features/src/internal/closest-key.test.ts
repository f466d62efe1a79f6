// The "did you mean" suggestion for unknown feature keys.

import { describe, expect, it } from 'vitest';
import { closestKey } from './closest-key.js';

const KEYS = ['goals', 'hooks', 'memories', 'multi_agent_v2', 'multi_agent'];

describe('closestKey', () => {
  it('suggests a key within two edits', () => {
    expect(closestKey('gaols', KEYS)).toBe('goals');
    expect(closestKey('memries', KEYS)).toBe('memories');
    expect(closestKey('multi_agent_v3', KEYS)).toBe('multi_agent_v2');
  });

  it('prefers the nearest key', () => {
    expect(closestKey('multi_agentv2', KEYS)).toBe('multi_agent_v2');
  });

  it('suggests nothing for a key far from every candidate', () => {
    expect(closestKey('telemetry', KEYS)).toBeUndefined();
  });
});
