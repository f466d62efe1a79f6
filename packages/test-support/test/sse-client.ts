// A real streaming client for the scenarios: POSTs with Node's fetch and parses the served body with
// eventsource-parser, so assertions are on what any SSE consumer would see.
import { createParser } from 'eventsource-parser';

/** One event as parsed off the wire. */
export interface ServedEvent {
  readonly event: string | undefined;
  readonly data: Record<string, unknown>;
}

/** Everything the client observed. */
export interface ClientReply {
  readonly status: number;
  readonly headers: Headers;
  readonly rawText: string;
  /** The parsed SSE events (empty for a non-SSE answer). */
  readonly events: ServedEvent[];
  /** Set when reading the body failed part way (a reset connection). */
  readonly streamError: unknown;
}

/** A minimal valid Responses request body. */
export function responsesBody(input: readonly unknown[], extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { model: 'gpt-5.5', stream: true, input, ...extra };
}

/** A user message input item. */
export function userMessage(text: string): Record<string, unknown> {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

/** POSTs `body` (JSON unless it is a string) to `${baseUrl}${path}` and reads the whole answer. */
export async function post(
  baseUrl: string,
  body: unknown,
  options: { readonly path?: string; readonly headers?: Readonly<Record<string, string>>; readonly method?: string } = {},
): Promise<ClientReply> {
  const response = await fetch(`${baseUrl}${options.path ?? '/responses'}`, {
    method: options.method ?? 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    ...(options.method === 'GET' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const events: ServedEvent[] = [];
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event, data: JSON.parse(message.data) as Record<string, unknown> }),
  });
  const isSse = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  const decoder = new TextDecoder();
  let rawText = '';
  let streamError: unknown;
  try {
    if (response.body !== null) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        rawText += text;
        if (isSse) parser.feed(text);
      }
    }
  } catch (error) {
    streamError = error;
  }
  return { status: response.status, headers: response.headers, rawText, events, streamError };
}

/** The event names of a reply, in order. */
export function eventTypes(reply: ClientReply): (string | undefined)[] {
  return reply.events.map((event) => event.event);
}
