import { describe, expect, it } from 'vitest';
import { ExtensionRegistryBuilder, ExtensionRegistryError, defineExtension } from './extension-registry.js';
import type { WorldStateContributor } from './world-state-contributor.js';

const section = (sectionId: string): WorldStateContributor => ({
  sectionId,
  snapshot: () => Promise.resolve(null),
  renderChange: () => undefined,
});

describe('ExtensionRegistryBuilder', () => {
  it('groups contributions by kind in installation order, remembering where each came from', () => {
    const registry = new ExtensionRegistryBuilder()
      .add(defineExtension({ id: 'alpha', context: {}, tools: { tools: () => Promise.resolve([]) }, worldState: [section('a1'), section('a2')] }))
      .add(defineExtension({ id: 'beta', context: {}, lifecycle: {}, turnInput: { contributeTurnInput: () => Promise.resolve([]) } }))
      .build();
    expect(registry.extensions.map((extension) => extension.id)).toEqual(['alpha', 'beta']);
    expect(registry.context.map((entry) => entry.extensionId)).toEqual(['alpha', 'beta']);
    expect(registry.tools.map((entry) => entry.extensionId)).toEqual(['alpha']);
    expect(registry.lifecycle.map((entry) => entry.extensionId)).toEqual(['beta']);
    expect(registry.turnInput.map((entry) => entry.extensionId)).toEqual(['beta']);
    expect(registry.worldState.map((entry) => [entry.extensionId, entry.contributor.sectionId])).toEqual([['alpha', 'a1'], ['alpha', 'a2']]);
    expect(Object.isFrozen(registry)).toBe(true);
  });

  it.each([
    [[{ id: 'Bad Id' }], 'InvalidId'],
    [[{ id: 'same' }, { id: 'same' }], 'DuplicateId'],
    [[{ id: 'one', worldState: [section('s')] }, { id: 'two', worldState: [section('s')] }], 'DuplicateSection'],
  ])('refuses %j with %s', (extensions, code) => {
    const builder = new ExtensionRegistryBuilder();
    try {
      for (const extension of extensions) builder.add(extension);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ExtensionRegistryError);
      expect((error as ExtensionRegistryError).code).toBe(code);
    }
  });
});
