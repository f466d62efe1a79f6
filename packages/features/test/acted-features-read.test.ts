// A feature marked acted on must be read somewhere: the registry says what Skein does, and a flag
// that nothing reads is a stub. This scans the sources of every package and extension (not their
// tests, not this package's own tables) for `isEnabled('<key>')`, or for the structured settings a
// feature with a table is read through (`features.tokenBudget` for `token_budget`).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_REGISTRY } from '../src/index.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !file.includes('node_modules'))
    .map((file) => path.join(dir, file));
}

const sourceDirs = ['packages', 'ext'].flatMap((group) =>
  readdirSync(path.join(ROOT, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'features')
    .map((entry) => path.join(ROOT, group, entry.name, 'src')),
);
const text = sourceDirs
  .flatMap((dir) => {
    try {
      return sources(dir);
    } catch {
      return []; // a package without src (none today)
    }
  })
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
const isRead = (key: string) => text.includes(`isEnabled('${key}')`) || text.includes(`features.${camel(key)}`);

describe('acted-on features', () => {
  it('are each read with isEnabled somewhere in the sources', () => {
    const unread = FEATURE_REGISTRY.filter((spec) => spec.actedOn && !isRead(spec.key)).map((spec) => spec.key);
    expect(unread).toEqual([]);
  });

  it('and every feature the sources read is marked acted on', () => {
    const read = new Set([...text.matchAll(/isEnabled\('([a-z0-9_]+)'\)/g)].map((match) => match[1]!));
    const unmarked = FEATURE_REGISTRY.filter((spec) => read.has(spec.key) && !spec.actedOn).map((spec) => spec.key);
    expect(unmarked).toEqual([]);
  });
});
