// Writes edits into a config.toml: checked against the schema first, then replaced atomically (a
// temp file renamed over it), one write at a time per file, so a reader never sees half a file and
// two writers never lose each other's edit.
import { createHash, randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { FeatureConfigError, resolveFeatures } from '@skein/features';
import type { ConfigEdit } from './config-edit.js';
import { ConfigError } from './config-error.js';
import { isConfigKeyPath } from './config-key-path.js';
import { ConfigWriteError } from './config-write-error.js';
import { splitKeyPath } from './split-key-path.js';
import { isTable, parseToml } from './toml-table.js';
import { validateLayer } from './validate-layer.js';

/** A config file's version: `sha256:<hex>` of its bytes (of nothing, for a file that does not exist). */
export function configFileVersion(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** What a write did. */
export interface ConfigFileWrite {
  /** The file written (symlinks resolved). */
  readonly file: string;
  /** Its version now. */
  readonly version: string;
  /** False when the edits left the text as it was (nothing was written). */
  readonly changed: boolean;
}

const writes = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task for `key` settled. */
async function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const before = writes.get(key) ?? Promise.resolve();
  const run = before.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  writes.set(key, settled);
  try {
    return await run;
  } finally {
    if (writes.get(key) === settled) writes.delete(key);
  }
}

/** Every dotted path an edit sets: the key itself, and each leaf of a table value. */
function writtenPaths(base: readonly string[], value: unknown): string[][] {
  if (!isTable(value) || Object.keys(value).length === 0) return [[...base]];
  return Object.entries(value).flatMap(([key, inner]) => writtenPaths([...base, key], inner));
}

/** Refuses edits of keys config.toml does not have, and of `[profiles]`, which only a person edits. */
function checkKeys(edits: readonly ConfigEdit[]): void {
  for (const edit of edits) {
    const keyPath = splitKeyPath(edit.keyPath);
    if (keyPath[0] === 'profiles') {
      throw new ConfigWriteError('configValidationError', '`profiles` tables cannot be written through the app-server; edit config.toml to change a profile');
    }
    // Removing a key nobody reads (a typo) is how a client cleans one up: allowed.
    if (edit.value === null) continue;
    for (const written of writtenPaths(keyPath, edit.value)) {
      if (!isConfigKeyPath(written)) throw new ConfigWriteError('configSchemaUnknownKey', `Unknown configuration key \`${written.join('.')}\``);
    }
  }
}

/** A ConfigError's reason alone: its message less the `<origin>: <key>: ` prefix. */
function reasonOf(error: ConfigError): string {
  const prefix = error.key === undefined ? `${error.origin}: ` : `${error.origin}: ${error.key}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/** Refuses text whose settings Skein would not load (the checks `loadConfig` makes of a file). */
function checkValues(text: string, file: string): void {
  let table: Record<string, unknown>;
  try {
    table = parseToml(text, file);
    validateLayer(table, file, false);
  } catch (error) {
    if (error instanceof ConfigError) throw ConfigWriteError.invalid(reasonOf(error), error.key);
    throw error;
  }
  if (!isTable(table.features)) return;
  try {
    resolveFeatures([{ origin: file, table: table.features }]);
  } catch (error) {
    if (error instanceof FeatureConfigError) throw ConfigWriteError.invalid(error.reason, error.key);
    throw error;
  }
}

async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The file a path names: a symlink's target, so the link stays a link. */
function target(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw error;
  }
}

/** Replaces `file` with `text` through a temp file in the same folder (same mode), renamed over it. */
async function replaceFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const mode = await stat(file).then(
    (stats) => stats.mode & 0o7777,
    () => 0o644,
  );
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Applies `edits` to the config.toml at `file` (created if missing), keeping its comments and
 * layout. Every key must be one config.toml has, and the whole resulting file must load.
 * Concurrent calls for one file run one after the other.
 *
 * @throws ConfigWriteError — `configVersionConflict` when `expectedVersion` is not the file's
 *   version, `configSchemaUnknownKey` for a key nobody reads, `configValidationError` for a value
 *   the key cannot take; nothing is written then.
 */
export async function writeConfigFile(file: string, edits: readonly ConfigEdit[], options: { readonly expectedVersion?: string | null | undefined } = {}): Promise<ConfigFileWrite> {
  // Resolved before the first await, so calls queue in the order they were made: the last one wins.
  const real = target(file);
  return serialized(real, async () => {
    const bytes = (await readIfExists(real)) ?? Buffer.alloc(0);
    const version = configFileVersion(bytes);
    if (options.expectedVersion !== undefined && options.expectedVersion !== null && options.expectedVersion !== version) {
      throw new ConfigWriteError('configVersionConflict', 'Configuration was modified since last read. Fetch latest version and retry.');
    }
    const text = bytes.toString('utf8');
    // The format-preserving TOML writer (164 KB) loads with the first write, not with every host (issue #18).
    const { applyConfigEdits } = await import('./config-edit.js');
    const edited = applyConfigEdits(text, edits);
    checkKeys(edits);
    if (edited === text) return { file: real, version, changed: false };
    checkValues(edited, real);
    await replaceFile(real, edited);
    return { file: real, version: configFileVersion(Buffer.from(edited, 'utf8')), changed: true };
  });
}
