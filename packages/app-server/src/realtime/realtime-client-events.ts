// What Skein sends the realtime endpoint (the OpenAI Realtime API's client events, in the shapes
// Codex's v2 session sends): the session's setup, conversation items, audio and response requests.
// The tool names and parameter schemas are the contract the realtime model was trained on; the
// descriptions are Skein's own.
import { REALTIME_SAMPLE_RATE } from './realtime-server-events.js';

/** A client event, ready to send as one JSON text frame. */
export type RealtimeClientEvent = { readonly type: string; readonly [key: string]: unknown };

/** The function the realtime model calls to hand a request to the thread's agent. */
export const HANDOFF_TOOL = 'background_agent';
/** The function it calls to say nothing. */
export const SILENCE_TOOL = 'remain_silent';

/** What `session.update` configures. */
export interface RealtimeSessionSetup {
  readonly sessionType: 'conversational' | 'transcription';
  readonly instructions: string;
  readonly outputModality: 'text' | 'audio';
  readonly voice: string;
}

const TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';
const pcm = { type: 'audio/pcm', rate: REALTIME_SAMPLE_RATE };

/** `session.update`: a conversation that delegates through {@link HANDOFF_TOOL}, or a transcription-only session. */
export function sessionUpdate(setup: RealtimeSessionSetup): RealtimeClientEvent {
  if (setup.sessionType === 'transcription') {
    return { type: 'session.update', session: { type: 'transcription', audio: { input: { format: pcm, transcription: { model: TRANSCRIPTION_MODEL } } } } };
  }
  return {
    type: 'session.update',
    session: {
      type: 'realtime',
      instructions: setup.instructions,
      output_modalities: [setup.outputModality],
      audio: {
        input: {
          format: pcm,
          noise_reduction: { type: 'near_field' },
          transcription: { model: TRANSCRIPTION_MODEL },
          turn_detection: { type: 'server_vad', interrupt_response: true, create_response: true, silence_duration_ms: 500 },
        },
        output: { format: pcm, voice: setup.voice },
      },
      tools: [
        {
          type: 'function',
          name: HANDOFF_TOOL,
          description:
            'Hand the user\'s request to the coding agent working in their workspace, in the user\'s own words. It starts a task when the agent is idle and adds guidance to the task it is on otherwise; its results come back as [BACKEND] messages. Use it for anything that needs the workspace, and to queue work the user wants done later.',
          parameters: {
            type: 'object',
            properties: { prompt: { type: 'string', description: 'The user\'s request, as they said it.' } },
            required: ['prompt'],
            additionalProperties: false,
          },
        },
        {
          type: 'function',
          name: SILENCE_TOOL,
          description: 'Say nothing this time: after a control message, or when a spoken reply would only interrupt. Has no other effect.',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
        },
      ],
      tool_choice: 'auto',
    },
  };
}

/** A text message for the conversation; an assistant's is output text, anyone else's input text. */
export function messageItem(role: 'user' | 'developer' | 'assistant', text: string): RealtimeClientEvent {
  return { type: 'conversation.item.create', item: { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] } };
}

/** The answer to one of the model's function calls. */
export function functionCallOutput(callId: string, output: string): RealtimeClientEvent {
  return { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } };
}

/** A chunk of the user's audio (base64 PCM at the session's rate). */
export function audioAppend(data: string): RealtimeClientEvent {
  return { type: 'input_audio_buffer.append', audio: data };
}

/** Asks the model to respond now. */
export function responseCreate(): RealtimeClientEvent {
  return { type: 'response.create' };
}
