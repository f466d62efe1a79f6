// A tool as a code-mode cell calls it, written as the TypeScript declaration the `exec` description
// lists (`exec_command(args: { cmd: string; workdir?: string; … }): Promise<unknown>;`).
import type { LeafToolHandler } from '@skein/extension-api';

type Schema = Readonly<Record<string, unknown>>;

/**
 * The declaration of `tool` under the name cells use. A schema longer than `maxSchemaBytes` (as
 * JSON) is not spelled out: `args: object` keeps a huge third-party schema out of every request.
 */
export function toolDeclaration(name: string, tool: LeafToolHandler, maxSchemaBytes?: number): string {
  const tooLong = tool.kind !== 'custom' && maxSchemaBytes !== undefined && Buffer.byteLength(JSON.stringify(tool.spec.parameters ?? {})) > maxSchemaBytes;
  const parameters = tool.kind === 'custom' ? 'input: string' : `args: ${tooLong ? 'object' : typeOf(tool.spec.parameters)}`;
  return `${name}(${parameters}): Promise<unknown>;`;
}

function typeOf(schema: Schema | undefined): string {
  if (schema === undefined) return 'unknown';
  const choices = (schema['enum'] ?? undefined) as readonly unknown[] | undefined;
  if (Array.isArray(choices)) return choices.map((choice) => JSON.stringify(choice)).join(' | ');
  const anyOf = (schema['anyOf'] ?? schema['oneOf']) as readonly Schema[] | undefined;
  if (Array.isArray(anyOf)) return anyOf.map(typeOf).join(' | ');
  switch (schema['type']) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema['items'] as Schema | undefined)}>`;
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
      const required = new Set((schema['required'] ?? []) as readonly string[]);
      const fields = Object.entries(properties).map(([key, value]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}${required.has(key) ? '' : '?'}: ${typeOf(value)};`);
      return fields.length === 0 ? '{}' : `{ ${fields.join(' ')} }`;
    }
    default:
      return 'unknown';
  }
}
