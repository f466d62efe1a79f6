// Pins this process (every thread: the bench's clients, its model worker, Node's own) to the CPUs
// the measured server is not given, so the load generator does not compete with the server for a
// core, as it would not if it ran on another machine. Linux only (util-linux `taskset`).
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/** The CPUs a `taskset --cpu-list` value names: `1`, `0,2`, `2-3`. */
function parseCpuList(list: string): Set<number> {
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (match === null) throw new Error(`not a CPU list: ${JSON.stringify(list)} (expected, say, 1 or 0,2 or 2-3)`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first) throw new Error(`not a CPU list: ${JSON.stringify(list)} (a range runs from low to high)`);
    for (let cpu = first; cpu <= last; cpu++) cpus.add(cpu);
  }
  return cpus;
}

/** Moves this process onto the CPUs outside `serverCpus`; answers the list it now runs on. */
export function pinBenchOffServerCpus(serverCpus: string): string {
  const taken = parseCpuList(serverCpus);
  const rest = Array.from({ length: cpus().length }, (_, cpu) => cpu).filter((cpu) => !taken.has(cpu));
  if (rest.length === 0) throw new Error(`SKEIN_BENCH_SERVER_CPUS=${serverCpus} leaves no CPU for the bench's clients and model`);
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', rest.join(','), String(process.pid)], { stdio: 'ignore' });
  return rest.join(',');
}
