// Reads a JSON manifest and checks it against its schema; every failure is an `InvalidManifest`
// naming the file and, for a schema miss, the field.
import { readFile } from 'node:fs/promises';
import type * as z from 'zod';
import { PluginError } from '../plugin-error.js';
import { assertInside } from './inside.js';

/**
 * The file parsed by `schema`, or undefined when it does not exist. With `within`, a file that
 * resolves (through links) outside that folder is refused rather than read.
 */
export async function readJsonFile<T>(file: string, schema: z.ZodType<T>, within?: string): Promise<T | undefined> {
  let text: string;
  try {
    if (within !== undefined) await assertInside(within, file);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof PluginError) throw error;
    throw new PluginError('InvalidManifest', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PluginError('InvalidManifest', `invalid JSON in ${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at \`${issue.path.join('.')}\``;
    throw new PluginError('InvalidManifest', `invalid manifest ${file}${where}: ${issue?.message ?? 'does not match'}`);
  }
  return parsed.data;
}
