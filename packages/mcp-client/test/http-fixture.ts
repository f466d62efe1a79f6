// The catalog server over streamable HTTP in the test process, on 127.0.0.1:0: one stateless SDK
// server per POST, as the SDK's stateless example serves it. Records each request's headers.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createResourceServer } from './fixtures/resource-server.mjs';
import type { FixtureBehaviour } from './fixtures/resource-server.mjs';

export interface HttpFixture {
  readonly url: string;
  /** Headers of every request received, in order. */
  readonly requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** `silent` accepts each request and never answers it. */
export async function startHttpFixture(behaviour: FixtureBehaviour | 'silent' = 'catalog'): Promise<HttpFixture> {
  const requests: IncomingHttpHeaders[] = [];
  const held: ServerResponse[] = [];
  const http = createServer((req, res) => {
    requests.push(req.headers);
    if (behaviour === 'silent') {
      held.push(res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const server = createResourceServer(behaviour);
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: async () => {
      for (const res of held) res.destroy();
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) => http.close((error) => (error === undefined ? resolve() : reject(error))));
    },
  };
}
