// Realtime conversations beside a thread: `thread/realtime/start|appendAudio|appendText|appendSpeech|
// stop|list|listVoices`, as Codex 0.171.0's app-server carries them. Params are checked here.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

const threadId = z.string().min(1);

/** The voices the realtime protocols offer, by version (Codex 0.171.0's lists and defaults). */
export const REALTIME_VOICES = {
  v1: ['juniper', 'maple', 'spruce', 'ember', 'vale', 'breeze', 'arbor', 'sol', 'cove'],
  v2: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
  v3: ['juniper', 'maple', 'spruce', 'ember', 'vale', 'breeze', 'arbor', 'sol', 'cove', 'marin', 'aube', 'bubbie', 'haetsal', 'hanul', 'himari', 'leher', 'miko', 'neer', 'porto', 'rindo', 'rio', 'rivage', 'selva', 'sonna', 'tinta', 'viola'],
  defaultV1: 'cove',
  defaultV2: 'marin',
} as const;

/** Every voice a version offers (the schema's `RealtimeVoice`). */
const ALL_VOICES = [...new Set<string>([...REALTIME_VOICES.v1, ...REALTIME_VOICES.v2, ...REALTIME_VOICES.v3])] as [string, ...string[]];

export const RealtimeTransport = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('websocket') }),
  z.object({ type: z.literal('webrtc'), sdp: z.string() }),
  z.object({ type: z.literal('existingCall'), callId: z.string() }),
]));

export const ConversationTextRole = lazySchema(() => z.enum(['user', 'developer', 'assistant']));

export const ThreadRealtimeStartParams = lazySchema(() => z.object({
  threadId,
  outputModality: z.enum(['text', 'audio']),
  transport: RealtimeTransport.nullish(),
  version: z.enum(['v1', 'v2', 'v3']).nullish(),
  voice: z.enum(ALL_VOICES).nullish(),
  model: z.string().min(1).nullish(),
  prompt: z.string().nullish(),
  includeStartupContext: z.boolean().nullish(),
  realtimeSessionId: z.string().min(1).nullish(),
  voiceSessionId: z.string().nullish(),
  realtimeStartInstructions: z.string().nullish(),
  realtimeEndInstructions: z.string().nullish(),
  clientManagedHandoffs: z.boolean().nullish(),
  codexResponsesAsItems: z.boolean().nullish(),
  codexResponseItemPrefix: z.string().nullish(),
  codexResponseHandoffMode: z.enum(['thinking', 'commentary', 'bemTags']).nullish(),
  codexResponseHandoffChannelPrefixes: z.record(z.string(), z.array(z.string())).nullish(),
  backendReasoningStatus: z.boolean().optional(),
  delegationAckFiller: z.boolean().nullish(),
  flushTranscriptTailOnSessionEnd: z.boolean().nullish(),
  initialItems: z.array(z.object({ role: ConversationTextRole, text: z.string() })).max(128).nullish(),
}));
export type ThreadRealtimeStartParams = z.infer<typeof ThreadRealtimeStartParams>;

/** One chunk of audio: base64 PCM and what it holds. */
export const ThreadRealtimeAudioChunk = lazySchema(() => z.object({
  data: z.string(),
  sampleRate: z.int().min(0).max(0xffff_ffff),
  numChannels: z.int().min(0).max(0xffff),
  samplesPerChannel: z.int().min(0).max(0xffff_ffff).nullish(),
  itemId: z.string().nullish(),
}));

export const ThreadRealtimeAppendAudioParams = lazySchema(() => z.object({ threadId, audio: ThreadRealtimeAudioChunk }));
export const ThreadRealtimeAppendTextParams = lazySchema(() => z.object({ threadId, text: z.string(), role: ConversationTextRole.optional() }));
export const ThreadRealtimeAppendSpeechParams = lazySchema(() => z.object({ threadId, text: z.string() }));
export const ThreadRealtimeStopParams = lazySchema(() => z.object({ threadId }));
export const ThreadRealtimeListVoicesParams = lazySchema(() => z.object({}).nullish());

export const ThreadRealtimeListParams = lazySchema(() => z.object({
  threadId,
  sessionId: z.string().nullish(),
  cursor: z.string().nullish(),
  limit: z.int().min(0).max(0xffff_ffff).nullish(),
  order: z.enum(['position', 'observedAt']).nullish(),
  afterPosition: z.int().min(0).nullish(),
  eventId: z.string().nullish(),
  fromObservedAtMs: z.int().nullish(),
  toObservedAtMs: z.int().nullish(),
  snapshotEnd: z.int().min(0).nullish(),
  requiredThroughPosition: z.int().min(0).nullish(),
}));
export type ThreadRealtimeListParams = z.infer<typeof ThreadRealtimeListParams>;
