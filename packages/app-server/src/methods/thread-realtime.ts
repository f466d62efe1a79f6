// `thread/realtime/*`: a realtime conversation beside a loaded thread over the websocket transport
// (Realtime API v2, Codex's default). Start answers at once and the conversation connects in the
// background; what it streams arrives as `thread/realtime/*` notifications (docs/realtime.md).
import { isLoopbackHost } from '@skein/json-rpc';
import {
  newTurnId,
  randomUuidV7,
  REALTIME_VOICES,
  ThreadRealtimeAppendAudioParams,
  ThreadRealtimeAppendSpeechParams,
  ThreadRealtimeAppendTextParams,
  ThreadRealtimeListParams,
  ThreadRealtimeListVoicesParams,
  ThreadRealtimeStartParams,
  ThreadRealtimeStopParams,
} from '@skein/protocol';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { RealtimeAppendError, type RealtimeConversation, type RealtimeThreadPort } from '../realtime/realtime-conversation.js';
import { realtimeInstructions } from '../realtime/realtime-instructions.js';
import { listRealtimeItems } from '../realtime/realtime-list.js';
import { REALTIME_SAMPLE_RATE } from '../realtime/realtime-server-events.js';
import { connectRealtime, realtimeUrl } from '../realtime/realtime-socket.js';
import type { LiveThread } from '../threads/live-thread.js';
import { requestServiceTier } from '../threads/service-tier.js';
import { afterResponse } from './threads.js';

/** The running conversation of a thread, or a -32600 saying how to start one. */
function conversationOf(context: MethodContext, threadId: string): RealtimeConversation {
  context.server.threads.loaded(threadId);
  const conversation = context.server.realtime.get(threadId);
  if (conversation === undefined) refuse(`no realtime conversation is running for thread ${threadId}; start one with thread/realtime/start`);
  return conversation;
}

/** Runs an append; one the conversation cannot take now is a -32600 saying why. */
function appending(append: () => void): Record<string, never> {
  try {
    append();
  } catch (error) {
    if (error instanceof RealtimeAppendError) refuse(error.message);
    throw error;
  }
  return {};
}

/** What a conversation needs of its thread, over the live thread and the server. */
function threadPort(context: MethodContext, thread: LiveThread): RealtimeThreadPort {
  const { server } = context;
  return {
    threadId: thread.id,
    activeTurnId: () => thread.activeTurnId,
    startTurn(text) {
      const turnId = newTurnId(randomUuidV7);
      thread.startTurn([{ type: 'text', text, text_elements: [] }], { turnId, turnTrigger: 'realtime', serviceTier: requestServiceTier(thread.serviceTier) });
      return turnId;
    },
    steer: async (turnId, text) => {
      await thread.steer(turnId, [{ type: 'text', text, text_elements: [] }]);
    },
    observe: (listener) => thread.observe(listener),
    // A store that cannot keep an item says so; the conversation goes on.
    record: (item) =>
      server.realtime.track(
        thread.id,
        thread.handle.recordRealtimeItem(item).catch((error: unknown) => void server.broadcast(thread.id, 'warning', { threadId: thread.id, message: `a realtime item could not be recorded: ${(error as Error).message}` })),
      ),
    notify: (method, params) => void server.broadcast(thread.id, method, params),
  };
}

/** The realtime methods. */
export const THREAD_REALTIME_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/realtime/start',
    defineMethod({
      params: ThreadRealtimeStartParams,
      async handle(params, context) {
        const thread = context.server.threads.loaded(params.threadId);
        const settings = thread.config.realtime;
        const transport = params.transport?.type ?? settings.transport;
        if (transport !== 'websocket') refuse(`the ${transport} realtime transport is not supported by Skein; use {"type": "websocket"}`);
        const version = params.version ?? settings.version;
        if (version !== 'v2') refuse(`realtime ${version} is not supported by Skein; use version "v2" (or [realtime] version = "v2")`);
        if ((params.initialItems ?? []).length > 0) refuse('initialItems needs realtime v3, which Skein does not support');
        const voice = params.voice ?? settings.voice ?? REALTIME_VOICES.defaultV2;
        if (!(REALTIME_VOICES.v2 as readonly string[]).includes(voice)) refuse(`voice ${voice} is not a realtime v2 voice (${REALTIME_VOICES.v2.join(', ')})`);
        // As Codex: the realtime endpoint takes an API key (auth.json's, else OPENAI_API_KEY), never a ChatGPT sign-in.
        const apiKey = context.server.savedApiKey.get() ?? context.server.threads.hostCommands.env['OPENAI_API_KEY'];
        if (apiKey === undefined || apiKey === '') refuse('realtime conversation requires API key auth');
        let url: URL;
        try {
          url = realtimeUrl(settings.wsBaseUrl, params.model ?? settings.wsModel);
        } catch (error) {
          refuse((error as Error).message);
        }
        // The API key rides in the handshake: in clear text it could be read on the way.
        if (url.protocol === 'ws:' && !isLoopbackHost(url.hostname)) {
          refuse(`experimental_realtime_ws_base_url ${settings.wsBaseUrl} would send your API key in clear text: use wss:// or https:// (plain ws:// and http:// only to a loopback address)`);
        }
        const realtimeSessionId = params.realtimeSessionId ?? randomUuidV7();
        const instructions = await realtimeInstructions({
          prompt: params.prompt ?? settings.backendPrompt,
          startupContext: settings.startupContext,
          includeStartupContext: params.includeStartupContext !== false,
          cwd: thread.config.cwd,
        });
        // The thread may have been unloaded while the workspace was read: a conversation must not outlive it.
        if (!context.server.threads.isLoaded(thread.id) || context.server.threads.loaded(thread.id) !== thread) refuse(`thread not found: ${thread.id}`);
        context.server.realtime.start(
          threadPort(context, thread),
          {
            realtimeSessionId,
            url,
            headers: {
              authorization: `Bearer ${apiKey}`,
              originator: thread.facts.originator,
              'thread-id': thread.id,
              'session-id': thread.handle.sessionId,
              'x-session-id': realtimeSessionId,
            },
            setup: { sessionType: settings.sessionType, instructions, outputModality: params.outputModality, voice },
            routing: { clientManaged: params.clientManagedHandoffs === true, asItems: params.codexResponsesAsItems === true, itemPrefix: params.codexResponseItemPrefix ?? null },
            connect: connectRealtime,
            newId: randomUuidV7,
            now: Date.now,
          },
          { start: params.realtimeStartInstructions ?? settings.startInstructions ?? null, end: params.realtimeEndInstructions ?? null },
        );
        return {};
      },
    }),
  ],
  [
    'thread/realtime/appendAudio',
    defineMethod({
      params: ThreadRealtimeAppendAudioParams,
      handle({ threadId, audio }, context) {
        const conversation = conversationOf(context, threadId);
        // The session takes 24 kHz mono PCM; other audio would be heard as noise, so it is refused.
        if (audio.sampleRate !== REALTIME_SAMPLE_RATE || audio.numChannels !== 1) {
          refuse(`realtime audio must be ${REALTIME_SAMPLE_RATE} Hz mono PCM, the session's input format; got ${audio.sampleRate} Hz with ${audio.numChannels} channel(s)`);
        }
        if (audio.data === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(audio.data) || audio.data.length % 4 !== 0) refuse('audio.data must be non-empty base64');
        return appending(() => conversation.appendAudio(audio.data));
      },
    }),
  ],
  [
    'thread/realtime/appendText',
    defineMethod({
      params: ThreadRealtimeAppendTextParams,
      handle({ threadId, text, role }, context) {
        const conversation = conversationOf(context, threadId);
        return appending(() => conversation.appendText(role ?? 'user', text));
      },
    }),
  ],
  [
    'thread/realtime/appendSpeech',
    defineMethod({
      params: ThreadRealtimeAppendSpeechParams,
      handle({ threadId, text }, context) {
        const conversation = conversationOf(context, threadId);
        return appending(() => conversation.appendSpeech(text));
      },
    }),
  ],
  [
    'thread/realtime/stop',
    defineMethod({
      params: ThreadRealtimeStopParams,
      handle({ threadId }, context) {
        // Stopping a thread with no conversation is done already. As Codex, the answer goes out
        // before the session's end is announced.
        context.server.threads.loaded(threadId);
        afterResponse(() => context.server.realtime.stop(threadId));
        return {};
      },
    }),
  ],
  [
    'thread/realtime/list',
    defineMethod({
      params: ThreadRealtimeListParams,
      async handle(params, context) {
        const { threads, realtime } = context.server;
        const live = threads.isLoaded(params.threadId) ? threads.loaded(params.threadId) : undefined;
        if (live?.facts.ephemeral === true) refuse('ephemeral threads do not support thread/realtime/list');
        await realtime.written(params.threadId);
        const store = await threads.store();
        try {
          return await listRealtimeItems((visit) => store.forEachLine(params.threadId, visit), params);
        } catch (error) {
          if (error instanceof AppServerRequestError) throw error;
          return refuse(`thread not found: ${params.threadId} (${(error as Error).message})`);
        }
      },
    }),
  ],
  [
    'thread/realtime/listVoices',
    defineMethod({
      params: ThreadRealtimeListVoicesParams,
      handle() {
        const { v1, v2, v3, defaultV1, defaultV2 } = REALTIME_VOICES;
        return { voices: { v1, v2, v3, defaultV1, defaultV2 } };
      },
    }),
  ],
]);
