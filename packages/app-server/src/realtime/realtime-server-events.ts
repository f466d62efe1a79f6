// What the realtime endpoint sends (the OpenAI Realtime API's server events, as Codex's v2 session
// reads them), parsed with zod into the few kinds a conversation acts on. Every other event type is
// ignored, as Codex ignores it; a frame that is not JSON is passed over with the reason, never thrown.
import * as z from 'zod';

/** 24 kHz mono PCM: what the session asks for, and what an audio delta without metadata is. */
export const REALTIME_SAMPLE_RATE = 24_000;

const withItem = { item_id: z.string().optional() };
const AudioDelta = z.looseObject({
  ...withItem,
  delta: z.string(),
  sample_rate: z.int().positive().optional(),
  channels: z.int().positive().optional(),
  num_channels: z.int().positive().optional(),
  samples_per_channel: z.int().nonnegative().optional(),
});
const TextDelta = z.looseObject({ ...withItem, delta: z.string() });
const FunctionCallItem = z.looseObject({
  type: z.literal('function_call'),
  id: z.string().optional(),
  call_id: z.string().optional(),
  name: z.string(),
  arguments: z.string().optional(),
});
const ErrorEvent = z.looseObject({ error: z.looseObject({ message: z.string().optional() }).optional(), message: z.string().optional() });

/** A server event a conversation acts on. */
export type RealtimeServerEvent =
  | { readonly kind: 'sessionUpdated'; readonly sessionId: string | undefined }
  | { readonly kind: 'audioOut'; readonly data: string; readonly sampleRate: number; readonly numChannels: number; readonly samplesPerChannel: number | undefined; readonly itemId: string | undefined }
  | { readonly kind: 'transcriptDelta'; readonly role: 'user' | 'assistant'; readonly delta: string }
  | { readonly kind: 'transcriptDone'; readonly role: 'user' | 'assistant'; readonly text: string }
  | { readonly kind: 'itemAdded'; readonly item: unknown }
  | { readonly kind: 'functionCall'; readonly name: string; readonly callId: string; readonly itemId: string; readonly arguments: string }
  | { readonly kind: 'error'; readonly message: string };

/** The parse of one text frame: an event to act on, one to ignore, or a frame that is not an event. */
export type ParsedServerFrame = { readonly ok: true; readonly event: RealtimeServerEvent | undefined } | { readonly ok: false; readonly problem: string };

/** Parses one text frame. */
export function parseServerFrame(text: string): ParsedServerFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'a realtime event that is not JSON' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return { ok: false, problem: 'a realtime event without a type' };
  const event = eventOf(type, value);
  return event === null ? { ok: false, problem: `a malformed ${type} event` } : { ok: true, event };
}

/** The event of a frame of type `type`; undefined to ignore it, null when its fields are wrong. */
function eventOf(type: string, value: unknown): RealtimeServerEvent | undefined | null {
  switch (type) {
    case 'session.updated': {
      const session = z.looseObject({ session: z.looseObject({ id: z.string().optional() }).optional() }).safeParse(value);
      return session.success ? { kind: 'sessionUpdated', sessionId: session.data.session?.id } : null;
    }
    case 'response.output_audio.delta':
    case 'response.audio.delta': {
      const audio = AudioDelta.safeParse(value);
      if (!audio.success) return null;
      const { delta, sample_rate, channels, num_channels, samples_per_channel, item_id } = audio.data;
      return { kind: 'audioOut', data: delta, sampleRate: sample_rate ?? REALTIME_SAMPLE_RATE, numChannels: channels ?? num_channels ?? 1, samplesPerChannel: samples_per_channel, itemId: item_id };
    }
    case 'conversation.item.input_audio_transcription.delta':
      return delta(value, 'user');
    case 'response.output_text.delta':
    case 'response.output_audio_transcript.delta':
      return delta(value, 'assistant');
    case 'conversation.item.input_audio_transcription.completed':
    case 'response.output_audio_transcript.done':
      return done(value, 'transcript', type.startsWith('conversation.') ? 'user' : 'assistant');
    case 'response.output_text.done':
      return done(value, 'text', 'assistant');
    case 'input_audio_buffer.speech_started':
      // Codex passes the event itself on as an added item (barge-in: clients stop playing audio).
      return { kind: 'itemAdded', item: value };
    case 'conversation.item.added': {
      const added = z.looseObject({ item: z.unknown() }).safeParse(value);
      return added.success && added.data.item !== undefined ? { kind: 'itemAdded', item: added.data.item } : null;
    }
    case 'conversation.item.done': {
      const call = z.looseObject({ item: z.unknown() }).transform((event) => FunctionCallItem.safeParse(event.item)).safeParse(value);
      if (!call.success) return null;
      if (!call.data.success) return undefined;
      const item = call.data.data;
      const callId = item.call_id ?? item.id;
      if (callId === undefined) return null;
      return { kind: 'functionCall', name: item.name, callId, itemId: item.id ?? callId, arguments: item.arguments ?? '' };
    }
    case 'error': {
      const error = ErrorEvent.safeParse(value);
      return { kind: 'error', message: (error.success ? (error.data.error?.message ?? error.data.message) : undefined) ?? 'the realtime endpoint reported an error' };
    }
    default:
      return undefined;
  }
}

function delta(value: unknown, role: 'user' | 'assistant'): RealtimeServerEvent | null {
  const parsed = TextDelta.safeParse(value);
  return parsed.success ? { kind: 'transcriptDelta', role, delta: parsed.data.delta } : null;
}

function done(value: unknown, field: 'text' | 'transcript', role: 'user' | 'assistant'): RealtimeServerEvent | null {
  const parsed = z.looseObject({ [field]: z.string() }).safeParse(value);
  return parsed.success ? { kind: 'transcriptDone', role, text: parsed.data[field] as string } : null;
}

/** The delegated request in a `background_agent` call's arguments: the first non-empty of Codex's keys, else the raw text. */
export function delegatedInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed !== null && typeof parsed === 'object') {
      for (const key of ['input_transcript', 'input', 'text', 'prompt', 'query']) {
        const candidate = (parsed as Record<string, unknown>)[key];
        if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
      }
    }
  } catch {
    // Not JSON: the arguments are the request.
  }
  return args;
}
