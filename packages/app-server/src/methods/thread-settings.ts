// `thread/settings/update`: changes a loaded thread's settings for its later turns (never the one
// running), then tells the thread's subscribers what the next turn runs with, as Codex 0.171.0 does:
// `{}`, then `thread/settings/updated {threadId, threadSettings}`.
import { ThreadSettingsUpdateParams } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { chosenServiceTier } from '../threads/service-tier.js';
import { recordPermissions, selectPermissions } from '../threads/permission-selection.js';
import { environmentEntries, nextTurnConfig, threadSettingsObject } from '../threads/thread-settings.js';
import type { SelectedEnvironment } from '@skein/core';
import { announceWhenConnected } from '../environments/environment-notices.js';
import { selectEnvironment, settleSelection } from '../environments/environment-selection.js';
import { afterResponse, asRequestError } from './threads.js';

/** The `thread/settings/update` method. */
export const THREAD_SETTINGS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/settings/update',
    defineMethod({
      params: ThreadSettingsUpdateParams,
      experimentalFields: ['collaborationMode', 'environments'],
      async handle(params, context) {
        const hub = context.server.threads;
        if (!hub.isLoaded(params.threadId)) refuse(`thread not found: ${params.threadId}`);
        const thread = hub.loaded(params.threadId);
        // What Skein cannot honour is refused before anything changes, rather than saved unused.
        const permissions = selectPermissions(params);
        if (params.approvalsReviewer !== undefined && params.approvalsReviewer !== null && params.approvalsReviewer !== 'user') {
          refuse(`approvalsReviewer \`${params.approvalsReviewer}\` is not supported by this server; approvals go to the user`);
        }
        const collaboration = params.collaborationMode ?? undefined;
        if (collaboration !== undefined && collaboration.mode !== 'default') refuse(`collaboration mode \`${collaboration.mode}\` is not supported by this server`);
        // An unknown environment id or a cwd that is no directory there refuses the request; an environment that cannot be reached is skipped with a warning.
        const selected = await selectEnvironment(params.environments, hub.environments);
        // As on turn/start: the primary environment's own cwd first; a bare cwd never moves named environments.
        const requested = selected?.cwd ?? (thread.environmentsNamed ? undefined : params.cwd) ?? undefined;
        const cwd = requested === undefined ? undefined : context.server.resolveCwd(requested);
        // A collaboration mode's settings take precedence over the model, effort and instructions.
        const change = {
          model: collaboration?.settings.model ?? params.model,
          effort: collaboration?.settings.reasoning_effort ?? params.effort,
          summary: params.summary,
          approvalPolicy: params.approvalPolicy,
          developerInstructions: collaboration?.settings.developer_instructions,
          sandbox: permissions.sandbox,
          cwd,
        };
        let settled: { readonly environments: readonly SelectedEnvironment[]; readonly warnings: readonly string[] } | undefined;
        const config = await thread
          .serializeSettings(async () => {
            const next = (await nextTurnConfig(context.server, thread, change)) ?? thread.nextConfig;
            // With deferred_executor off later turns wait for the environments to connect.
            settled = selected === undefined ? undefined : await settleSelection(selected.environments, next.features.isEnabled('deferred_executor'));
            thread.configureNextTurns(next, settled?.environments);
            return next;
          })
          .catch((error: unknown) => asRequestError(error));
        if (settled !== undefined) {
          thread.environmentsNamed = true;
          announceWhenConnected(context.server, thread.id, settled.environments);
        }
        recordPermissions(thread, permissions);
        thread.serviceTier = chosenServiceTier(params.serviceTier, thread.serviceTier);
        if (params.personality !== undefined && params.personality !== null) thread.personality = params.personality;
        if (params.multiAgentMode !== undefined && params.multiAgentMode !== null) thread.handle.setMultiAgentMode(params.multiAgentMode);
        if (params.disabledPluginIds !== undefined && params.disabledPluginIds !== null) thread.disabledPluginIds = [...params.disabledPluginIds];
        const threadSettings = threadSettingsObject(thread, config, environmentEntries(thread, settled?.environments));
        afterResponse(() => {
          for (const message of [...(selected?.warnings ?? []), ...(settled?.warnings ?? [])]) context.server.broadcast(thread.id, 'warning', { threadId: thread.id, message });
          context.server.broadcast(thread.id, 'thread/settings/updated', { threadId: thread.id, threadSettings });
        });
        return {};
      },
    }),
  ],
]);
