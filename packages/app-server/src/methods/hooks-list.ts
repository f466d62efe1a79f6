// `hooks/list`: each directory's hooks (or the named loaded thread's), as Codex 0.171.0 lists them —
// every configured command hook with its key, hash and trust status, in listing order, and what
// was wrong with a hooks file. A directory whose config cannot load lists that as its error.
import path from 'node:path';
import type { Config } from '@skein/config';
import { hookLayers } from '@skein/core';
import { discoverHooks, type ConfiguredHook } from '@skein/hooks';
import { HooksListParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `hooks/list` method. */
export const HOOKS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'hooks/list',
    defineMethod({
      params: HooksListParams,
      async handle(params, { server }) {
        const named = params.threadId ?? null;
        if (named !== null) {
          if (params.cwds !== undefined) throw AppServerRequestError.invalidRequest('hooks/list takes a threadId or cwds, not both');
          const thread = server.threads.loaded(named);
          // The thread's own reading: its executors' project hooks too.
          const catalog = await thread.handle.listHooks();
          return { data: [{ cwd: thread.config.cwd, hooks: catalog.hooks.map(hookMetadata), warnings: catalog.warnings, errors: catalog.errors }] };
        }
        // Codex echoes each cwd as sent, and lists for its working directory when none is given.
        const base = server.config.config.cwd;
        const cwds = params.cwds === undefined || params.cwds.length === 0 ? [base] : params.cwds;
        const data = await Promise.all(
          cwds.map(async (cwd) => {
            try {
              return await entryFor(cwd, (await server.loadConfig(path.resolve(base, cwd))).config);
            } catch (error) {
              return { cwd, hooks: [], warnings: [], errors: [{ path: cwd, message: error instanceof Error ? error.message : String(error) }] };
            }
          }),
        );
        return { data };
      },
    }),
  ],
]);

async function entryFor(cwd: string, config: Config) {
  const catalog = await discoverHooks(hookLayers(config.layers));
  return { cwd, hooks: catalog.hooks.map(hookMetadata), warnings: catalog.warnings, errors: catalog.errors };
}

/** One hook, with the fields in Codex's order. */
function hookMetadata(hook: ConfiguredHook) {
  const { handler } = hook;
  return {
    key: hook.key,
    eventName: hook.event,
    ...(handler.type === 'command' ? { handlerType: 'command', command: handler.command, async: handler.async } : { handlerType: 'mcpTool', server: handler.server, tool: handler.tool }),
    matcher: hook.matcher,
    timeoutSec: hook.timeoutSec,
    statusMessage: hook.statusMessage,
    additionalContextLimit: null,
    sourcePath: hook.sourcePath,
    source: hook.source,
    pluginId: null,
    environmentId: hook.environmentId,
    displayOrder: hook.displayOrder,
    enabled: hook.enabled,
    isManaged: false,
    currentHash: hook.currentHash,
    trustStatus: hook.trustStatus,
  };
}
