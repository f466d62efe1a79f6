// Reading TOML files into plain tables, and merging tables the way config layers stack.
import { readFile } from 'node:fs/promises';
import { TomlError, parse } from 'smol-toml';
import { ConfigError } from './config-error.js';

/** A TOML table as plain data. */
export type TomlTable = Record<string, unknown>;

/** Whether `value` is a table (a plain object, not an array or a date). */
export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Parses TOML text; a syntax error names the file, line and column. */
export function parseToml(text: string, origin: string): TomlTable {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.split('\n')[0] ?? error.message;
      throw new ConfigError('InvalidToml', `${origin}:${error.line}:${error.column}`, undefined, reason);
    }
    throw error;
  }
}

/** Reads a file's text; `undefined` when it does not exist. */
export type ReadText = (file: string) => Promise<string | undefined>;

/** Reads and parses a TOML file; `undefined` when it does not exist. `readText` reads it (default: from disk). */
export async function readTomlFile(file: string, readText: ReadText = readTextFile): Promise<TomlTable | undefined> {
  let text: string | undefined;
  try {
    text = await readText(file);
  } catch (error) {
    throw new ConfigError('UnreadableFile', file, undefined, (error as Error).message);
  }
  return text === undefined ? undefined : parseToml(text, file);
}

async function readTextFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** `upper` stacked on `lower`: tables merge key by key, any other value replaces. Inputs are not modified. */
export function mergeTables(lower: TomlTable, upper: TomlTable): TomlTable {
  const merged: TomlTable = { ...lower };
  for (const [key, value] of Object.entries(upper)) {
    const below = merged[key];
    merged[key] = isTable(below) && isTable(value) ? mergeTables(below, value) : value;
  }
  return merged;
}
