// The skills extension's share of a turn: building the catalog for 2,000 skills cold (scan, parse,
// render) and from the snapshot a later turn reuses; then what a first turn with 100 skills adds
// before its request (catalog, world-state snapshot, `$name` injection), the model excluded.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryExtensionData, type DurableExtensionData, type Extension } from '@skein/extension-api';
import { SkillsService } from '@skein/ext-skills';

const root = await mkdtemp(path.join(tmpdir(), 'skein-skills-bench-'));

async function homeWith(count: number): Promise<string> {
  const home = path.join(root, `home-${count}`);
  for (let index = 0; index < count; index++) {
    const dir = path.join(home, 'skills', `skill-${index}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), `---\nname: skill-${index}\ndescription: Does task number ${index} the way this team does it. Use when asked for task ${index}.\n---\n\n${'Step.\n'.repeat(40)}`);
  }
  return home;
}

const service = (home: string) => new SkillsService({ home, settings: () => Promise.resolve({ projectRoot: home, toggles: [], remoteSkills: false }), watch: false, userHome: null, adminRoot: null });

function request(turnId: string, prompt = 'hello') {
  return {
    threadId: 'bench',
    turnId,
    cwd: root,
    init: { selectedCapabilityRoots: [] },
    environments: [],
    warn: () => undefined,
    session: new MemoryExtensionData(),
    thread: new MemoryExtensionData() as DurableExtensionData,
    turn: new MemoryExtensionData(),
    input: [{ type: 'text' as const, text: prompt, text_elements: [] }],
  };
}

async function firstTurn(extension: Extension, turnId: string, prompt: string): Promise<number> {
  const turn = request(turnId, prompt);
  const fragments = (await extension.context?.threadFragments?.(turn)) ?? [];
  await extension.worldState?.[0]?.snapshot(turn);
  await extension.turnInput?.contributeTurnInput(turn);
  return fragments.reduce((bytes, fragment) => bytes + Buffer.byteLength(fragment.text), 0);
}

function stats(samples: number[]): string {
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;
  return `p50 ${at(50).toFixed(2)} ms   p95 ${at(95).toFixed(2)} ms`;
}

async function measure(runs: number, once: (run: number) => Promise<unknown>): Promise<string> {
  for (let run = 0; run < 3; run++) await once(-run - 1);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await once(run);
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

try {
  const big = await homeWith(2000);
  let bytes = 0;
  const cold = await measure(10, async () => {
    bytes = await firstTurn(service(big).extension, 'cold', 'hello');
  });
  const warmService = service(big);
  const warm = warmService.extension;
  await firstTurn(warm, 'prime', 'hello');
  const snapshot = await measure(200, (run) => firstTurn(warm, `turn-${run}`, 'hello'));
  console.log(`catalog of 2,000 skills (${(bytes / 1024).toFixed(1)} KiB rendered, bounded):`);
  console.log(`  cold (scan, parse, render):        ${cold}`);
  console.log(`  from the snapshot (later turns):   ${snapshot}`);

  const hundred = service(await homeWith(100));
  const none = service(path.join(root, 'empty'));
  await firstTurn(hundred.extension, 'prime', 'hello');
  await firstTurn(none.extension, 'prime', 'hello');
  const withSkills = await measure(200, (run) => firstTurn(hundred.extension, `t-${run}`, 'use $skill-7 please'));
  const without = await measure(200, (run) => firstTurn(none.extension, `t-${run}`, 'hello'));
  console.log('before a first request, from the snapshot:');
  console.log(`  100 skills, one named with $:      ${withSkills}`);
  console.log(`  system skills only:                ${without}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
