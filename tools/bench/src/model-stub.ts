// A model for timing `exec` from the outside: answers every Responses request at once with one short
// assistant message and notes when each request arrived and when its answer was fully written, on
// this process's clock (the same one that times the child), so spawn → first request and
// response end → exit come out of one clock.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** When one request arrived and when its answer's last byte was handed to the socket. */
export interface StubExchange {
  readonly requestAt: number;
  responseEndAt: number | undefined;
  readonly bodyBytes: number;
}

export interface ModelStub {
  /** Provider `base_url`: `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** Every exchange so far, in arrival order; the bench clears it between samples. */
  readonly exchanges: StubExchange[];
  close(): Promise<void>;
}

const frame = (event: Record<string, unknown>) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;

/** The answer's SSE body: created, one message item streamed in one delta, completed with usage. */
function answerBody(): string {
  const message = { type: 'message', id: 'msg_stub', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello.', annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 };
  const events = [
    { type: 'response.created', response: { id: 'resp_stub', object: 'response', status: 'in_progress' } },
    { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_stub', content_index: 0, delta: 'Hello.' },
    { type: 'response.output_item.done', output_index: 0, item: message },
    { type: 'response.completed', response: { id: 'resp_stub', object: 'response', status: 'completed', model: 'gpt-5.5', output: [message], usage } },
  ];
  return events.map((event, index) => frame({ ...event, sequence_number: index })).join('');
}

/** Starts the stub on an ephemeral loopback port. */
export async function startModelStub(): Promise<ModelStub> {
  const exchanges: StubExchange[] = [];
  const body = answerBody();
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const requestAt = performance.now();
    let bodyBytes = 0;
    request.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    request.on('end', () => {
      if (request.method !== 'POST' || !(request.url ?? '').endsWith('/responses')) {
        response.writeHead(404).end();
        return;
      }
      const exchange: StubExchange = { requestAt, responseEndAt: undefined, bodyBytes };
      exchanges.push(exchange);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(body, () => (exchange.responseEndAt = performance.now()));
    });
  };
  const server = createServer(onRequest);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address !== null && typeof address === 'object') resolve(address.port);
      else reject(new Error('the model stub has no TCP address'));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/v1`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
