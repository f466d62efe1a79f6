// The app-server's one thread registry: core's ThreadManager with the server's store, credentials,
// host facts and environment, goal continuation on, and the sub-agent threads no client opened
// bound to the hub.
import { ThreadManager } from '@skein/core';
import { ExtensionRegistryBuilder } from '@skein/extension-api';
import type { ThreadStore } from '@skein/rollout';
import { bindSubagentThreads, subagentRegistryOptions, type SubagentThreads } from './subagent-threads.js';
import type { ThreadHubOptions } from './thread-hub-options.js';

export function appServerThreadManager(store: ThreadStore, options: ThreadHubOptions, installationId: string | undefined, subagents: SubagentThreads): ThreadManager {
  const manager = new ThreadManager({
    store,
    // Each thread brings the extensions its config names; this is only the fallback.
    extensions: new ExtensionRegistryBuilder().build(),
    env: options.env,
    savedApiKey: options.savedApiKey,
    host: options.host,
    // Each thread names the client that opened it; this is only the fallback.
    originator: 'skein_app_server',
    source: 'vscode',
    cliVersion: options.cliVersion,
    installationId,
    environment: options.environment,
    // An active goal keeps an app-server thread working with turns of its own.
    continueGoals: true,
    bypassHookTrust: options.bypassHookTrust,
    ...subagentRegistryOptions(subagents),
  });
  bindSubagentThreads(manager, subagents);
  return manager;
}
