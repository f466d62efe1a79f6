// Builders of OpenAI Realtime API (GA) server events, named after what they say, so a test reads
// like the conversation: `connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'fix it' }))`.

/** A server event as sent: a `type` and its fields. */
export interface RealtimeServerEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** Options of `realtimeEvents.handoff`. */
export interface RealtimeHandoffOptions {
  readonly callId: string;
  /** Default `item_<callId>`. */
  readonly itemId?: string;
  /** What the voice model asks the background agent to do. */
  readonly prompt: string;
}

/** Options of `realtimeEvents.outputAudioDelta`; the optional fields are left out when not given. */
export interface RealtimeAudioDeltaOptions {
  readonly itemId: string;
  /** Base64 PCM16 audio. */
  readonly data: string;
  readonly sampleRate?: number;
  readonly channels?: number;
  readonly samplesPerChannel?: number;
}

/** A finished function call item, the way the model calls one of the session's tools. */
function functionCallDone(name: string, callId: string, itemId: string | undefined, args: string): RealtimeServerEvent {
  return { type: 'conversation.item.done', item: { id: itemId ?? `item_${callId}`, type: 'function_call', name, call_id: callId, arguments: args } };
}

export const realtimeEvents = {
  /** The model hands work to the background agent (Codex's `background_agent` tool). */
  handoff({ callId, itemId, prompt }: RealtimeHandoffOptions): RealtimeServerEvent {
    return functionCallDone('background_agent', callId, itemId, JSON.stringify({ prompt }));
  },
  /** The model decides to say nothing (Codex's `remain_silent` tool). */
  remainSilent({ callId }: { readonly callId: string }): RealtimeServerEvent {
    return functionCallDone('remain_silent', callId, undefined, '{}');
  },
  inputTranscriptDelta(itemId: string, delta: string): RealtimeServerEvent {
    return { type: 'conversation.item.input_audio_transcription.delta', item_id: itemId, delta };
  },
  inputTranscriptCompleted(itemId: string, transcript: string): RealtimeServerEvent {
    return { type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript };
  },
  outputTextDelta(itemId: string, delta: string): RealtimeServerEvent {
    return { type: 'response.output_text.delta', item_id: itemId, delta };
  },
  outputTextDone(itemId: string, text: string): RealtimeServerEvent {
    return { type: 'response.output_text.done', item_id: itemId, text };
  },
  outputAudioTranscriptDelta(itemId: string, delta: string): RealtimeServerEvent {
    return { type: 'response.output_audio_transcript.delta', item_id: itemId, delta };
  },
  outputAudioTranscriptDone(itemId: string, transcript: string): RealtimeServerEvent {
    return { type: 'response.output_audio_transcript.done', item_id: itemId, transcript };
  },
  outputAudioDelta({ itemId, data, sampleRate, channels, samplesPerChannel }: RealtimeAudioDeltaOptions): RealtimeServerEvent {
    return {
      type: 'response.output_audio.delta',
      item_id: itemId,
      delta: data,
      ...(sampleRate === undefined ? {} : { sample_rate: sampleRate }),
      ...(channels === undefined ? {} : { channels }),
      ...(samplesPerChannel === undefined ? {} : { samples_per_channel: samplesPerChannel }),
    };
  },
  /** The server's voice activity detection heard the user start speaking (a barge-in). */
  speechStarted(itemId: string): RealtimeServerEvent {
    return { type: 'input_audio_buffer.speech_started', item_id: itemId };
  },
  itemAdded(item: object): RealtimeServerEvent {
    return { type: 'conversation.item.added', item };
  },
  responseCreated(id: string): RealtimeServerEvent {
    return { type: 'response.created', response: { id } };
  },
  responseDone(id: string): RealtimeServerEvent {
    return { type: 'response.done', response: { id } };
  },
  error(message: string, type = 'server_error'): RealtimeServerEvent {
    return { type: 'error', error: { message, type } };
  },
} as const;
