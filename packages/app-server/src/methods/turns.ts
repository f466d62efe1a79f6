// `turn/*`: start (with its overrides and environment selection), steer and interrupt. Each answers
// promptly; a started turn notifies in the background.
import { newTurnId, randomUuidV7, TurnInterruptParams, TurnStartParams, TurnSteerParams } from '@skein/protocol';
import { withPrimaryWorkspaceRoots } from '@skein/core';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import { announceWhenConnected } from '../environments/environment-notices.js';
import { checkWorkspaceRoots, selectEnvironment, settleSelection } from '../environments/environment-selection.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import type { LiveThread } from '../threads/live-thread.js';
import { chosenServiceTier, requestServiceTier } from '../threads/service-tier.js';
import type { WireObject } from '@skein/core';
import { recordPermissions, selectPermissions } from '../threads/permission-selection.js';
import { environmentEntries, nextTurnConfig, threadSettingsObject } from '../threads/thread-settings.js';
import { asRequestError } from './threads.js';

function hubOf(context: MethodContext) {
  return context.server.threads;
}

/** Refuses a new turn while one runs. */
function assertNoTurnRunning(thread: LiveThread): void {
  if (thread.activeTurnId !== undefined) throw AppServerRequestError.invalidRequest(`turn ${thread.activeTurnId} is still running; use turn/steer or turn/interrupt`);
}

/** The turn methods. */
export const TURN_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'turn/start',
    defineMethod({
      params: TurnStartParams,
      experimentalFields: ['environments', 'collaborationMode'],
      async handle(params, context) {
        const hub = hubOf(context);
        const thread = hub.loaded(params.threadId);
        assertNoTurnRunning(thread);
        const permissions = selectPermissions(params);
        checkWorkspaceRoots(params.runtimeWorkspaceRoots);
        const roots = params.runtimeWorkspaceRoots ?? undefined;
        // Checked (ids, and each cwd on its environment) before anything changes.
        const chosen = await selectEnvironment(params.environments, hub.environments);
        // With deferred_executor off the turn starts once its environments are connected; waited for
        // before the settings are read, so a settings change that arrives meanwhile is built on.
        const settled = chosen === undefined ? undefined : await settleSelection(chosen.environments, thread.nextConfig.features.isEnabled('deferred_executor'));
        const selected = chosen === undefined || settled === undefined ? undefined : { ...chosen, environments: settled.environments, warnings: [...chosen.warnings, ...settled.warnings] };
        // The primary environment's own cwd wins over the top-level one, which is a fallback, and
        // only for a thread whose environments no client named.
        const requested = selected?.cwd ?? (thread.environmentsNamed ? undefined : params.cwd) ?? undefined;
        const cwd = requested === undefined ? undefined : context.server.resolveCwd(requested);
        // The overrides layer over the thread's settings so far (thread/start's, earlier turns',
        // thread/settings/update's), after any settings change that arrived before this turn; the
        // settings are compared from that point on.
        let settingsBefore: WireObject | undefined;
        const config = await thread
          .serializeSettings(() => {
            settingsBefore = currentSettings(thread);
            return nextTurnConfig(context.server, thread, { model: params.model, approvalPolicy: params.approvalPolicy, effort: params.effort, summary: params.summary, sandbox: permissions.sandbox, cwd });
          })
          .catch((error: unknown) => asRequestError(error));
        // Another turn may have started while the settings were loading. Nothing has changed until
        // here, so a refused or failed turn/start leaves the thread as it was.
        assertNoTurnRunning(thread);
        if (selected === undefined && roots !== undefined) thread.handle.useWorkspaceRoots(roots);
        if (selected !== undefined) {
          thread.environmentsNamed = true;
          thread.handle.useEnvironment(withPrimaryWorkspaceRoots(selected.environments, roots));
          announceWhenConnected(context.server, thread.id, selected.environments);
          for (const message of selected.warnings) context.server.broadcast(thread.id, 'warning', { threadId: thread.id, message });
        }
        if (config !== undefined) thread.reconfigure(config);
        recordPermissions(thread, permissions);
        thread.serviceTier = chosenServiceTier(params.serviceTier, thread.serviceTier);
        // Sticky, as the thread's other settings a turn changes.
        if (params.multiAgentMode !== undefined && params.multiAgentMode !== null) thread.handle.setMultiAgentMode(params.multiAgentMode);
        if (params.disabledPluginIds !== undefined && params.disabledPluginIds !== null) thread.disabledPluginIds = [...params.disabledPluginIds];
        // As Codex: overrides that change the thread's settings announce them before the turn starts.
        const settingsAfter = currentSettings(thread);
        if (settingsBefore !== undefined && JSON.stringify(settingsAfter) !== JSON.stringify(settingsBefore)) context.server.broadcast(thread.id, 'thread/settings/updated', { threadId: thread.id, threadSettings: settingsAfter });
        // A tier for this turn alone leaves the thread's as it is.
        const turnTier = params.serviceTierForTurn ?? undefined;
        const serviceTier = requestServiceTier(turnTier === undefined ? thread.serviceTier : chosenServiceTier(turnTier, null));
        const turn = thread.startTurn(params.input, {
          turnId: newTurnId(randomUuidV7),
          clientUserMessageId: params.clientUserMessageId,
          clientMetadata: params.responsesapiClientMetadata,
          serviceTier,
          ...(params.outputSchema === undefined ? {} : { outputSchema: params.outputSchema }),
        });
        return { turn };
      },
    }),
  ],
  [
    'turn/steer',
    defineMethod({
      params: TurnSteerParams,
      async handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        const turnId = await thread.steer(params.expectedTurnId, params.input, params.clientUserMessageId ?? null).catch((error: unknown) => asRequestError(error));
        return { turnId };
      },
    }),
  ],
  [
    'turn/interrupt',
    defineMethod({
      params: TurnInterruptParams,
      handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        // Codex's words, without the usual prefix.
        const running = thread.activeTurnId;
        if (running === undefined) refuse('no active turn to interrupt');
        if (running !== params.turnId) refuse(`expected active turn id ${params.turnId} but found ${running}`);
        try {
          thread.interrupt(params.turnId);
        } catch (error) {
          asRequestError(error);
        }
        return {};
      },
    }),
  ],
]);

/** The settings the thread's next turn runs with, as `thread/settings/updated` carries them. */
function currentSettings(thread: LiveThread): WireObject {
  return threadSettingsObject(thread, thread.nextConfig, environmentEntries(thread, undefined));
}
