// The README shows the whole example extension; this keeps the copy in step with the source CI runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');

describe('README', () => {
  it('shows examples/todo-extension/src/index.ts as it is', () => {
    const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const source = readFileSync(path.join(ROOT, 'examples', 'todo-extension', 'src', 'index.ts'), 'utf8');
    const shown = /## The whole example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBe(source);
  });
});
