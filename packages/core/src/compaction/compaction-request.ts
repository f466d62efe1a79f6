// The model request of a local compaction: a normal `POST /responses` with the turn's body keys, no
// tools and no parallel calls, carrying the whole history plus one message that asks for a handoff
// summary. The assistant text of the reply is the summary.
import { ensureResponseItemId, isKnownResponseItem, messageText, type ResponseItem, type UuidV7Source } from '@skein/protocol';
import { ModelError } from '../model-client/model-error.js';
import type { TokenUsage } from '../model-client/response-event.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import type { ModelInfo } from '../model/model-catalog.js';
import { buildResponsesBody, type SamplingRequest } from '../model/responses-request.js';
import { handoffSummaryRequest } from './handoff-summary.js';

/** What one compaction request needs. */
export interface CompactionRequest {
  readonly client: ResponsesClient;
  readonly model: ModelInfo;
  /** The request fields of a turn (effort, cache key, client metadata with `request_kind: "compaction"`). */
  readonly request: Omit<SamplingRequest, 'model' | 'input' | 'tools' | 'compaction'>;
  /** The history as the next turn request would carry it. */
  readonly input: readonly ResponseItem[];
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly uuid: UuidV7Source;
  /** Told when the stream is retried. */
  readonly onRetry?: (retry: { readonly attempt: number; readonly delayMs: number; readonly reason: string }) => void;
}

/** The model's summary and what the request cost. */
export interface CompactionResponse {
  readonly summary: string;
  readonly usage: TokenUsage | undefined;
  readonly responseId: string | undefined;
}

/** Asks the model for the handoff summary; throws `ModelError` when it fails or answers without text. */
export async function requestHandoffSummary(request: CompactionRequest): Promise<CompactionResponse> {
  const body = buildResponsesBody({
    ...request.request,
    model: request.model,
    input: [...request.input, ensureResponseItemId(handoffSummaryRequest(), request.uuid)],
    tools: [],
    compaction: true,
  });
  let produced: ResponseItem[] = [];
  for await (const event of request.client.stream(body, { signal: request.signal, headers: request.headers })) {
    switch (event.type) {
      case 'retrying':
        produced = [];
        request.onRetry?.(event);
        break;
      case 'outputItemDone':
        produced.push(event.item);
        break;
      case 'completed': {
        const summary = lastAssistantText(produced);
        if (summary === undefined || summary.trim() === '') throw new ModelError('ResponseFailed', 'the compaction response held no summary text');
        return { summary, usage: event.usage, responseId: event.responseId };
      }
      default:
        break;
    }
  }
  throw new ModelError('StreamDisconnected', 'the compaction stream ended before response.completed');
}

function lastAssistantText(items: readonly ResponseItem[]): string | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (isKnownResponseItem(item) && item.type === 'message' && item.role === 'assistant') return messageText(item);
  }
  return undefined;
}
