// A model request reduced to its shape, to compare with Codex's recorded transcripts without their
// prose: items by type, role and leading tag; tool outputs by their parts; search outputs by
// namespace and tool (* = defer_loading); tools by name (a namespace as `name.*`).

const tag = (text: string) => (text.startsWith('<') ? `${text.split('>')[0]}>` : 'text');
export function itemShape(item: Record<string, unknown>): string {
  switch (item['type']) {
    case 'message':
      return `${String(item['role'])}:${(item['content'] as { text?: string }[]).filter((part) => part.text !== undefined).map((part) => tag(part.text!.trim())).join('+')}`;
    case 'function_call':
      return `function_call:${typeof item['namespace'] === 'string' ? item['namespace'] : ''}.${String(item['name'])}`;
    case 'custom_tool_call':
      return `custom_tool_call:${String(item['name'])}`;
    case 'custom_tool_call_output':
      return `custom_tool_call_output:${Array.isArray(item['output']) ? (item['output'] as { type: string }[]).map((part) => part.type).join('+') : 'string'}`;
    case 'function_call_output':
      // An output no call asked for (Codex's goal_objective) is named by its namespace and name.
      if (typeof item['name'] === 'string') return `function_call_output:${String(item['namespace'])}.${item['name']}`;
      return `function_call_output:${Array.isArray(item['output']) ? (item['output'] as { type: string }[]).map((part) => part.type).join('+') : 'string'}`;
    case 'tool_search_output':
      return `tool_search_output:${(item['tools'] as { name: string; tools: { name: string; defer_loading?: boolean }[] }[]).map((group) => `${group.name}[${group.tools.map((tool) => `${tool.name}${tool.defer_loading === true ? '*' : ''}`).join(',')}]`).join(';')}`;
    default:
      return String(item['type']);
  }
}
export const toolName = (tool: { type: string; name?: string }) => (tool.type === 'namespace' ? `${tool.name!}.*` : (tool.name ?? tool.type));
