// `config/value/write` and `config/batchWrite`: edits of the user's config.toml, in place (comments
// and layout kept), refused whole when a key or value is wrong; later reads and threads see them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigWriteError, writeConfigFile, type ConfigEdit, type ConfigLayer } from '@skein/config';
import {
  AppServerErrorCode,
  ConfigBatchWriteParams,
  ConfigValueWriteParams,
  type ConfigWriteResponse,
  type OverriddenMetadata,
} from '@skein/protocol';
import { isDeepStrictEqual } from 'node:util';
import type { AppServer } from '../app-server.js';
import { AppServerRequestError } from '../app-server-error.js';
import { layerMetadata } from '../config-read-result.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The error answer for a refused write: -32600 with the reason's code in `data`, as Codex answers. */
function refused(error: ConfigWriteError): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidRequest, error.message, { config_write_error_code: error.code });
}

/** The user's config.toml, which is the only file a client may write (given absolute, any spelling). */
function userConfigFile(server: AppServer, filePath: string | null | undefined): string {
  const file = path.join(server.codexHome, 'config.toml');
  if (filePath === undefined || filePath === null) return file;
  if (!path.isAbsolute(filePath) || path.resolve(filePath) !== path.resolve(file)) {
    throw refused(new ConfigWriteError('configLayerReadonly', 'Only writes to the user config are allowed'));
  }
  return file;
}

function valueAt(table: Readonly<Record<string, unknown>>, keyPath: readonly string[]): unknown {
  let value: unknown = table;
  for (const key of keyPath) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function overridingMessage(layer: ConfigLayer): string {
  switch (layer.name.type) {
    case 'sessionFlags':
      return 'Overridden by session flags';
    case 'project':
      return `Overridden by project config at ${path.dirname(layer.name.file)}`;
    case 'profile':
      return `Overridden by profile \`${layer.name.profile}\``;
    case 'user':
      return 'Overridden by user config';
    case 'system':
      return 'Overridden by system config';
  }
}

async function readLayerFile(file: string): Promise<Uint8Array | undefined> {
  return readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** The first edit (in order) a layer above the user's file overrides with another value, if any. */
async function firstOverridden(server: AppServer, edits: readonly ConfigEdit[]): Promise<OverriddenMetadata | null> {
  const { layers } = server.config.config;
  // The layers above the user's file (the system file is below it).
  const above = layers.slice(layers.findIndex((layer) => layer.name.type === 'user') + 1).toReversed();
  for (const edit of edits) {
    const keyPath = typeof edit.keyPath === 'string' ? edit.keyPath.split('.') : [...edit.keyPath];
    for (const layer of above) {
      const effective = valueAt(layer.table, keyPath);
      if (effective === undefined) continue;
      if (isDeepStrictEqual(effective, edit.value)) break;
      return { message: overridingMessage(layer), overridingLayer: await layerMetadata(layer, readLayerFile), effectiveValue: effective };
    }
  }
  return null;
}

/** Writes `edits` (all or none), reloads the server's config and answers Codex's write result. */
async function write(server: AppServer, edits: readonly ConfigEdit[], filePath: string | null | undefined, expectedVersion: string | null | undefined): Promise<ConfigWriteResponse> {
  const file = userConfigFile(server, filePath);
  try {
    const written = await server.changeConfig(() => writeConfigFile(file, edits, { expectedVersion }));
    const overriddenMetadata = await firstOverridden(server, edits);
    return { status: overriddenMetadata === null ? 'ok' : 'okOverridden', version: written.version, filePath: written.file, overriddenMetadata };
  } catch (error) {
    if (error instanceof ConfigWriteError) throw refused(error);
    throw error;
  }
}

/** The config write methods. */
export const CONFIG_WRITE_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'config/value/write',
    defineMethod({
      params: ConfigValueWriteParams,
      handle: ({ keyPath, value, mergeStrategy, filePath, expectedVersion }, { server }) => write(server, [{ keyPath, value, mergeStrategy }], filePath, expectedVersion),
    }),
  ],
  [
    'config/batchWrite',
    // `reloadUserConfig` needs nothing more: Skein's threads read config when they start.
    defineMethod({
      params: ConfigBatchWriteParams,
      handle: ({ edits, filePath, expectedVersion }, { server }) => write(server, edits, filePath, expectedVersion),
    }),
  ],
]);
