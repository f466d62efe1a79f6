// Tool definitions as the Responses API takes them: functions with JSON-Schema parameters, custom
// (freeform) tools with an optional grammar, namespaces grouping tools, and hosted tools passed through.
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A JSON Schema object describing a function's arguments. */
export const JsonSchemaObject = lazySchema(() => z.looseObject({ type: z.literal('object') }));
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

/** A function tool: the model calls it with JSON arguments. */
export const FunctionToolSpec = lazySchema(() => z.object({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string(),
  strict: z.boolean(),
  parameters: JsonSchemaObject,
}));
export type FunctionToolSpec = z.infer<typeof FunctionToolSpec>;

/** What a custom tool's input must look like: free text, or text matching a grammar. */
export const CustomToolFormat = lazySchema(() => z.union([
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string() }),
]));
export type CustomToolFormat = z.infer<typeof CustomToolFormat>;

/** A custom (freeform) tool: the model calls it with raw text, such as a patch. */
export const CustomToolSpec = lazySchema(() => z.object({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string(),
  format: CustomToolFormat.optional(),
}));
export type CustomToolSpec = z.infer<typeof CustomToolSpec>;

/** Tools grouped under a name; calls carry the namespace beside the tool name. */
export const NamespaceToolSpec = lazySchema(() => z.object({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string(),
  tools: z.array(z.union([FunctionToolSpec, CustomToolSpec])),
}));
export type NamespaceToolSpec = z.infer<typeof NamespaceToolSpec>;

const KNOWN_TOOL_TYPES = new Set(['function', 'custom', 'namespace']);

/** A hosted or client-executed tool the API defines itself (`web_search`, `tool_search`, …), kept whole. */
export const HostedToolSpec = lazySchema(() => z.looseObject({
  type: z.string().refine((type) => !KNOWN_TOOL_TYPES.has(type), 'this tool type has its own schema'),
}));
export type HostedToolSpec = z.infer<typeof HostedToolSpec>;

/** Any tool definition offered to the model. */
export const ToolSpec = lazySchema(() => z.union([z.discriminatedUnion('type', [FunctionToolSpec, CustomToolSpec, NamespaceToolSpec]), HostedToolSpec]));
export type ToolSpec = z.infer<typeof ToolSpec>;
