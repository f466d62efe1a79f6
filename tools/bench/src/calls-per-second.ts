// Throughput of an async call with a fixed number of requests outstanding: the measure the
// exec-server benchmarks (and the comparison beside Codex) report as ops/s.
import { performance } from 'node:perf_hooks';

/** Calls per second of `call` over `seconds`, with `inFlight` requests outstanding at any time. */
export async function callsPerSecond(call: () => Promise<unknown>, inFlight: number, seconds: number): Promise<number> {
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      await call();
      done += 1;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done / ((performance.now() - start) / 1000);
}
