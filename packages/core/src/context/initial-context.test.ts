import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import type { EnvironmentContext } from './environment-context.js';
import { buildInitialContext, contextUpdates } from './initial-context.js';
import type { PermissionsFacts } from './permissions-instructions.js';

const environment: EnvironmentContext = {
  cwd: '/work/ws',
  shell: 'bash',
  currentDate: '2026-11-30',
  timezone: 'Etc/UTC',
  workspaceRoots: ['/work/ws'],
  permissionProfile: { type: 'managed', entries: [{ access: 'read', target: { special: 'root' } }] },
};
const permissions: PermissionsFacts = { sandboxMode: 'read-only', writableRoots: [], networkAccess: false, approvalPolicy: 'never' };

describe('buildInitialContext', () => {
  it('has the roles, parts and tags Codex 0.171.0 records for gpt-5.5 (the base instructions are kept apart)', () => {
    const items = buildInitialContext({
      permissions,
      developerParts: ['<skills_instructions>\n…\n</skills_instructions>', '<tools>\n…\n</tools>'],
      agentsMd: '# AGENTS.md instructions for /work/ws\n\n<INSTRUCTIONS>\nBe kind.\n</INSTRUCTIONS>',
      environment,
    });
    for (const item of items) ResponseItem.parse(item);
    const shape = items.map((item) =>
      item.type === 'message' && 'role' in item ? [item.role, (item.content as { text: string }[]).map((part) => part.text.split('\n')[0])] : [],
    );
    expect(shape).toEqual([
      ['developer', ['<skills_instructions>', '<permissions instructions>', '<tools>']],
      ['user', ['# AGENTS.md instructions for /work/ws', '<environment_context>']],
    ]);
  });

  it('has only permissions in the developer message and only the environment in the user message when nothing else exists', () => {
    const items = buildInitialContext({ permissions, agentsMd: undefined, environment });
    expect((items[0] as { content: unknown[] }).content).toHaveLength(1);
    expect((items[1] as { content: { text: string }[] }).content.map((part) => part.text.split('\n')[0])).toEqual(['<environment_context>']);
  });
});

describe('contextUpdates', () => {
  it('adds nothing when nothing changed', () => {
    expect(contextUpdates({ environment, permissions }, { environment, permissions })).toEqual([]);
  });

  it('adds a new environment context when the cwd changes, and a permissions part when the sandbox changes', () => {
    const moved = { ...environment, cwd: '/work/other' };
    const updates = contextUpdates({ environment, permissions }, { environment: moved, permissions: { ...permissions, sandboxMode: 'workspace-write', writableRoots: ['/work/other'] } });
    expect(updates.map((item) => (item as { role: string }).role)).toEqual(['developer', 'user']);
    expect(JSON.stringify(updates[0])).toContain('workspace-write');
    expect(JSON.stringify(updates[1])).toContain('<cwd>/work/other</cwd>');
  });
});
