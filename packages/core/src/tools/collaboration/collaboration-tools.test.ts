import type { FunctionToolHandler, NamespaceToolHandler } from '@skein/extension-api';
import { describe, expect, it } from 'vitest';
import type { AgentTree } from '../../agents/agent-tree.js';
import { collaborationTools } from './collaboration-tools.js';
import { multiAgentV1Tools } from './multi-agent-v1-tools.js';

// Nothing is called here: the tools are only built.
const binding = { tree: {} as AgentTree, caller: () => undefined, emit: () => undefined, now: () => 0 };
const leaves = (namespace: NamespaceToolHandler) => namespace.tools as FunctionToolHandler<unknown>[];

describe('the collaboration namespaces (issue #43: built per thread)', () => {
  it('share one spec and one argument schema per tool between threads', () => {
    const first = leaves(collaborationTools(binding));
    const second = leaves(collaborationTools({ ...binding }));
    expect(first.map((tool) => tool.spec.name)).toEqual(['followup_task', 'interrupt_agent', 'list_agents', 'send_message', 'spawn_agent', 'wait_agent']);
    first.forEach((tool, index) => {
      expect(second[index]?.spec).toBe(tool.spec);
      expect(second[index]?.arguments).toBe(tool.arguments);
      expect(second[index]).not.toBe(tool);
    });
  });

  it('share them in multi_agent_v1 too', () => {
    const settings = () => ({ model: 'gpt-5.5', reasoningEffort: undefined });
    const first = leaves(multiAgentV1Tools({ ...binding, settings }));
    const second = leaves(multiAgentV1Tools({ ...binding, settings }));
    expect(first.map((tool) => tool.spec.name)).toEqual(['wait_agent', 'send_input', 'spawn_agent', 'resume_agent', 'close_agent']);
    first.forEach((tool, index) => {
      expect(second[index]?.spec).toBe(tool.spec);
      expect(second[index]?.arguments).toBe(tool.arguments);
    });
  });
});
