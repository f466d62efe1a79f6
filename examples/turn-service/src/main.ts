#!/usr/bin/env node
// Runs the turn service: a Skein runtime over $CODEX_HOME, listening on 127.0.0.1 (PORT, default
// 8787). TURN_SERVICE_TOKEN is required: the service runs commands on this machine for whoever calls it.
import { createRuntime } from '@skein/core/host';
import { createTurnService } from './turn-service.js';

const token = process.env['TURN_SERVICE_TOKEN'];
if (token === undefined || token.length < 16) {
  console.error('turn-service: set TURN_SERVICE_TOKEN to a secret of at least 16 characters');
  process.exit(2);
}
const port = Number(process.env['PORT'] ?? 8787);
const runtime = await createRuntime({ onWarning: (message) => console.error(`warning: ${message}`) });
const server = createTurnService({ runtime, token });
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.error(`turn-service listening on http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}`);
});

// Ctrl-C or a stop: finish nothing new, interrupt what runs, close the threads' files.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void runtime.close().then(() => process.exit(0));
  });
}
