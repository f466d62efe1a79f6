// `server/diagnostics`: the server process and a few gauges, as Codex 0.171.0 answers it (probed):
// `{process: {id, residentMemoryBytes, physicalFootprintBytes}, gauges: [{name, value}]}`. The
// physical footprint is a macOS measure; Linux and Windows report null, as Codex does there.
import { ServerDiagnosticsParams } from '@skein/protocol';
import type { AppServer } from '../app-server.js';
import { defineMethod, type AppServerMethod } from '../method.js';

/** How many threads are loaded; a server made without threads (a config-only host) has none. */
async function loadedThreads(server: AppServer): Promise<number> {
  try {
    return (await server.threads.loadedIds()).length;
  } catch {
    return 0;
  }
}

/** The `server/diagnostics` method. */
export const SERVER_DIAGNOSTICS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'server/diagnostics',
    defineMethod({
      params: ServerDiagnosticsParams,
      async handle(_params, { server }) {
        const inFlight = server.connections.reduce((sum, connection) => sum + connection.requestsInFlight, 0);
        const delay = server.eventLoopDelay.read();
        return {
          process: { id: process.pid, residentMemoryBytes: process.memoryUsage.rss(), physicalFootprintBytes: null },
          gauges: [
            // Codex's gauge: requests being handled, this one included.
            { name: 'app.requests.in_flight', value: inFlight },
            // Skein's: connected clients and loaded threads.
            { name: 'app.connections', value: server.connections.length },
            { name: 'app.threads.loaded', value: await loadedThreads(server) },
            // The event loop's lateness since the previous call (µs; gauges are integers): what every client
            // waits on. The first call starts the measurement.
            { name: 'app.event_loop.delay_p99_us', value: delay.p99Us },
            { name: 'app.event_loop.delay_max_us', value: delay.maxUs },
          ],
        };
      },
    }),
  ],
]);
