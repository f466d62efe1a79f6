// `skein debug models` run as a user would: the catalog in `codex debug models`' shape.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');
const run = promisify(execFile);

let home: string;
beforeEach(() => (home = mkdtempSync(path.join(tmpdir(), 'skein-debug-'))));
afterEach(() => rmSync(home, { recursive: true, force: true }));

type Entry = Record<string, unknown> & { slug: string };

describe('skein debug models', () => {
  it("prints the catalog in Codex's shape and order, with or without --bundled", async () => {
    const { stdout } = await run(process.execPath, [BIN, 'debug', 'models'], { env: { PATH: process.env.PATH, CODEX_HOME: home } });
    const { models } = JSON.parse(stdout) as { models: Entry[] };
    // Codex 0.171.0's `priority` of each model (its picker's order); Skein lists them in that order.
    expect(models.map((model) => [model.slug, model['priority']])).toEqual([
      ['gpt-6.2-sol', 1], ['gpt-6.2-astra', 2], ['gpt-6.1-terra', 3], ['gpt-6.1-sol', 4], ['gpt-6-astra', 5], ['gpt-6-sol', 6], ['gpt-6-luna', 7],
      ['gpt-5.6-sol', 8], ['gpt-5.6-terra', 9], ['gpt-5.6-luna', 10], ['gpt-daybreak-blue-latest', 11], ['gpt-daybreak-red-latest', 12], ['gpt-5.5', 13],
      // Codex gives its hidden review model 43; Skein numbers it after the rest.
      ['codex-auto-review', 14],
    ]);
    const bySlug = new Map(models.map((model) => [model.slug, model]));
    expect(bySlug.get('gpt-6.2-sol')).toMatchObject({
      display_name: 'GPT-6.2-Sol',
      default_reasoning_level: 'low',
      visibility: 'list',
      priority: 1,
      additional_speed_tiers: ['fast'],
      service_tiers: [{ id: 'priority', name: 'Fast', description: '2x speed, increased usage' }],
      upgrade: null,
      context_window: 500_000,
      effective_context_window_percent: 95,
      input_modalities: ['text', 'image'],
      tool_mode: 'code_mode_only',
      multi_agent_version: 'v2',
    });
    expect((bySlug.get('gpt-6.2-sol')?.['supported_reasoning_levels'] as { effort: string }[]).map((level) => level.effort)).toEqual(['low', 'medium', 'high', 'xhigh', 'max', 'ultra']);
    const direct = bySlug.get('gpt-5.5');
    expect(direct).toMatchObject({ upgrade: { model: 'gpt-6-sol' }, tool_mode: 'direct', service_tiers: [{ id: 'priority', name: 'Fast', description: '1.5x speed, increased usage' }] });
    expect(direct).not.toHaveProperty('multi_agent_version');
    expect(bySlug.get('gpt-daybreak-red-latest')).toMatchObject({ visibility: 'hide', additional_speed_tiers: [], service_tiers: [] });
    const bundled = await run(process.execPath, [BIN, 'debug', 'models', '--bundled'], { env: { PATH: process.env.PATH, CODEX_HOME: home } });
    expect(bundled.stdout).toBe(stdout);
  });
});
