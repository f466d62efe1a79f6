// Runs the built benchmarks (dist/<name>.bench.js) one after another, each in its own process so one
// benchmark's heap and timers cannot disturb the next. With names, runs only those.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dist = path.join(import.meta.dirname, '..', 'dist');
const available = readdirSync(dist).filter((file) => file.endsWith('.bench.js')).map((file) => file.slice(0, -'.bench.js'.length));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, ['--expose-gc', path.join(dist, `${name}.bench.js`)], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exitCode = failed ? 1 : 0;
