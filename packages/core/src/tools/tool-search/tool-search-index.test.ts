import { defineFunctionTool, type NamespaceToolHandler } from '@skein/extension-api';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MAX_SEARCH_LIMIT, ToolSearchIndex } from './tool-search-index.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) =>
  defineFunctionTool({ spec: { type: 'function', name, description, strict: false, parameters: { type: 'object', properties } }, arguments: z.unknown(), handle: () => Promise.resolve({ output: '', success: true }) });
const namespace = (name: string, tools: ReturnType<typeof tool>[]): NamespaceToolHandler => ({ kind: 'namespace', name, description: `${name} tools`, exposure: 'deferred', tools });

const calendar = namespace('mcp__calendar', [tool('create_event', 'Create a calendar event.', { title: { type: 'string', description: 'Event title' } }), tool('list_events', 'List upcoming events.')]);
const weather = namespace('mcp__weather', [tool('get_forecast', 'Forecast for a city.', { city: { type: 'string', description: 'City name' } })]);

describe('ToolSearchIndex', () => {
  it('ranks by name, namespace, description and parameters', () => {
    const index = new ToolSearchIndex();
    expect(index.search([calendar, weather], 'forecast', 8).map((hit) => hit.tool.spec.name)).toEqual(['get_forecast']);
    // A parameter's description is searched too.
    expect(index.search([calendar, weather], 'city', 8).map((hit) => hit.tool.spec.name)).toEqual(['get_forecast']);
    // The namespace name is searched: both calendar tools come back.
    expect(index.search([calendar, weather], 'calendar', 8).map((hit) => hit.namespace?.name)).toEqual(['mcp__calendar', 'mcp__calendar']);
  });

  it('builds once for the same deferred set and again when it changes', () => {
    const index = new ToolSearchIndex();
    index.search([calendar], 'event', 8);
    index.search([calendar], 'list', 8);
    expect(index.builds).toBe(1);
    index.search([calendar, weather], 'event', 8);
    expect(index.builds).toBe(2);
  });

  it('returns nothing for an empty query and at most MAX_SEARCH_LIMIT tools', () => {
    const many = namespace('mcp__many', Array.from({ length: 100 }, (_, index) => tool(`tool_${index}`, 'does things')));
    const index = new ToolSearchIndex();
    expect(index.search([many], '   ', 8)).toEqual([]);
    expect(index.search([many], 'things', 1_000_000)).toHaveLength(MAX_SEARCH_LIMIT);
    expect(index.search([many], 'things', 0)).toHaveLength(1);
  });
});
