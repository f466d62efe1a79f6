// Realtime conversations as config.toml sets them, in Codex's keys: `[realtime]` (protocol version,
// session type, transport, voice) and the top-level `experimental_realtime_*` overrides of the
// endpoint, model, prompt and startup context.
import * as z from 'zod';

/** `[realtime]`. */
export const RealtimeToml = z.looseObject({
  version: z.enum(['v1', 'v2', 'v3']).optional(),
  /** `conversational` (the model talks back) or `transcription` (it only transcribes). */
  type: z.enum(['conversational', 'transcription']).optional(),
  transport: z.enum(['websocket', 'webrtc']).optional(),
  voice: z.string().min(1).optional(),
});
export type RealtimeToml = z.infer<typeof RealtimeToml>;

/** The top-level `experimental_realtime_*` keys. */
export const realtimeTopLevelKeys = {
  /** The realtime endpoint's base URL (`ws(s)://host[/path]`); `/v1/realtime` is added to it. */
  experimental_realtime_ws_base_url: z.string().min(1).optional(),
  experimental_realtime_ws_model: z.string().min(1).optional(),
  /** Replaces the realtime model's instructions. */
  experimental_realtime_ws_backend_prompt: z.string().optional(),
  /** Replaces the startup context appended to those instructions. */
  experimental_realtime_ws_startup_context: z.string().optional(),
  /** What the thread's model is told when a realtime conversation starts. */
  experimental_realtime_start_instructions: z.string().optional(),
};

/** What a realtime session starts with, unless `thread/realtime/start` says otherwise. */
export interface RealtimeSettings {
  readonly version: 'v1' | 'v2' | 'v3';
  readonly sessionType: 'conversational' | 'transcription';
  readonly transport: 'websocket' | 'webrtc';
  readonly voice: string | undefined;
  readonly wsBaseUrl: string;
  readonly wsModel: string;
  readonly backendPrompt: string | undefined;
  readonly startupContext: string | undefined;
  readonly startInstructions: string | undefined;
}

/** Codex's endpoint and model when config names none. */
export const DEFAULT_REALTIME_WS_BASE_URL = 'wss://api.openai.com';
export const DEFAULT_REALTIME_WS_MODEL = 'gpt-realtime-1.5';

type TopLevel = { readonly [K in keyof typeof realtimeTopLevelKeys]?: z.infer<(typeof realtimeTopLevelKeys)[K]> };

/** The settings from the merged `[realtime]` table and top-level keys. */
export function realtimeSettings(table: RealtimeToml | undefined, merged: TopLevel): RealtimeSettings {
  return {
    version: table?.version ?? 'v2',
    sessionType: table?.type ?? 'conversational',
    transport: table?.transport ?? 'websocket',
    voice: table?.voice,
    wsBaseUrl: merged.experimental_realtime_ws_base_url ?? DEFAULT_REALTIME_WS_BASE_URL,
    wsModel: merged.experimental_realtime_ws_model ?? DEFAULT_REALTIME_WS_MODEL,
    backendPrompt: merged.experimental_realtime_ws_backend_prompt,
    startupContext: merged.experimental_realtime_ws_startup_context,
    startInstructions: merged.experimental_realtime_start_instructions,
  };
}
