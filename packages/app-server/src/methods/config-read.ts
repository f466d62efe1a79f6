// `config/read`: the effective config as a thread in `cwd` would see it, with each key's origin
// and, on request, every layer (CODEX-FACTS §12.11).
import { readFile } from 'node:fs/promises';
import { ConfigReadParams, type ConfigReadResponse } from '@skein/protocol';
import { configReadResult } from '../config-read-result.js';
import { defineMethod, type AppServerMethod } from '../method.js';

async function readLayerFile(file: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The `config/read` method. */
export const CONFIG_READ_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'config/read',
    defineMethod({
      params: ConfigReadParams,
      async handle(params, { server }): Promise<ConfigReadResponse> {
        const loaded = params.cwd === undefined || params.cwd === null ? server.config : await server.loadConfig(server.resolveCwd(params.cwd));
        return configReadResult(loaded, params.includeLayers ?? false, readLayerFile);
      },
    }),
  ],
]);
