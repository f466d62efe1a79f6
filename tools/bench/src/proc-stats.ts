// What Linux's /proc says of a process and of the machine, for benchmarks that tell the measured
// server's own work from waiting. Off Linux each answers NaN (or undefined), and the bench says n/a.
import { readFileSync } from 'node:fs';

/** The process's user + system CPU time so far (ms); NaN off Linux or once it has exited. */
export function processCpuMs(pid: number | undefined): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks (100 a second on Linux), after the `(comm)` field.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * How long the process's main thread (its event loop) was ready to run but waited for a CPU, in ms:
 * the second field of Linux's schedstat. On a machine whose cores the clients and the model share,
 * this is the part of a turn's overhead the server's own work did not cause. NaN off Linux.
 */
export function runQueueWaitMs(pid: number | undefined): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** The machine's CPU time so far (clock ticks): busy, stolen by the hypervisor, and in all; undefined off Linux. */
export function machineTicks(): { readonly busy: number; readonly steal: number; readonly total: number } | undefined {
  try {
    // cpu  user(0) nice(1) system(2) idle(3) iowait(4) irq(5) softirq(6) steal(7) …
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const tick = (field: number) => ticks[field] ?? 0;
    const busy = tick(0) + tick(1) + tick(2) + tick(5) + tick(6);
    return { busy, steal: tick(7), total: busy + tick(7) + tick(3) + tick(4) };
  } catch {
    return undefined;
  }
}
