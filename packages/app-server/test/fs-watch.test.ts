// `fs/watch` / `fs/unwatch` / `fs/changed` against the built binary with real files: the shapes and
// errors Codex 0.171.0 answers with (client-chosen ids, normalized paths, direct children only,
// batched sorted paths). Every message is schema-checked by the test client.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

interface FsChanged {
  readonly watchId: string;
  readonly changedPaths: readonly string[];
}

describe('fs/watch', () => {
  let home: TestHome;
  let client: AppServerTestClient;
  let dir: string;

  beforeEach(async () => {
    home = makeHome();
    dir = path.join(home.workspace, 'watched');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'existing.txt'), 'x');
    client = spawnStdioClient(home);
    await client.initialize();
  });
  afterEach(async () => {
    await client.close();
    home.cleanup();
  });

  const changedFor = (watchId: string, changedPath: string) => (params: unknown) =>
    (params as FsChanged).watchId === watchId && (params as FsChanged).changedPaths.includes(changedPath);

  it('reports created, modified and deleted direct children with absolute paths', async () => {
    expect(await client.request('fs/watch', { watchId: 'w1', path: `${dir}/sub/../` })).toEqual({ path: dir });
    // chokidar arms asynchronously: keep touching until the first event arrives.
    const created = path.join(dir, 'new.txt');
    const first = client.waitFor('fs/changed', changedFor('w1', created));
    const toucher = setInterval(() => writeFileSync(created, String(Date.now())), 300);
    try {
      expect(await first).toEqual({ watchId: 'w1', changedPaths: [created] });
    } finally {
      clearInterval(toucher);
    }

    const existing = path.join(dir, 'existing.txt');
    appendFileSync(existing, 'more');
    expect(await client.waitFor('fs/changed', changedFor('w1', existing))).toMatchObject({ watchId: 'w1' });

    rmSync(created);
    const seen = client.notifications.length;
    await client.waitFor('fs/changed', (params) => client.notifications.length > seen && changedFor('w1', created)(params));

    // A file two levels down is not a direct child: no event names it.
    writeFileSync(path.join(dir, 'sub', 'deep.txt'), 'd');
    const marker = path.join(dir, 'marker.txt');
    writeFileSync(marker, 'm');
    await client.waitFor('fs/changed', changedFor('w1', marker));
    const named = client.notifications.flatMap((n) => (n.method === 'fs/changed' ? (n.params as FsChanged).changedPaths : []));
    expect(named).not.toContain(path.join(dir, 'sub', 'deep.txt'));
  });

  it('batches a burst into sorted paths and stops after fs/unwatch', async () => {
    await client.request('fs/watch', { watchId: 'burst', path: dir });
    const probe = path.join(dir, 'probe.txt');
    const armed = client.waitFor('fs/changed', changedFor('burst', probe));
    const toucher = setInterval(() => writeFileSync(probe, String(Date.now())), 300);
    try {
      await armed;
    } finally {
      clearInterval(toucher);
    }
    const names = ['b3.txt', 'b1.txt', 'b2.txt'].map((name) => path.join(dir, name));
    for (const name of names) writeFileSync(name, 'b');
    const last = await client.waitFor('fs/changed', changedFor('burst', names[2] ?? ''));
    const batchPaths = (last as FsChanged).changedPaths;
    expect([...batchPaths]).toEqual([...batchPaths].sort());

    expect(await client.request('fs/unwatch', { watchId: 'burst' })).toEqual({});
    // Another watch on the same directory still reports; the unwatched one never does again.
    await client.request('fs/watch', { watchId: 'other', path: dir });
    const after = path.join(dir, 'after.txt');
    const otherSeen = client.waitFor('fs/changed', changedFor('other', after));
    const toucher2 = setInterval(() => writeFileSync(after, String(Date.now())), 300);
    try {
      await otherSeen;
    } finally {
      clearInterval(toucher2);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(client.notifications.some((n) => n.method === 'fs/changed' && changedFor('burst', after)(n.params))).toBe(false);
  });

  it('watches one file and a file that does not exist yet', async () => {
    const file = path.join(dir, 'existing.txt');
    const later = path.join(dir, 'later.txt');
    expect(await client.request('fs/watch', { watchId: 'file', path: file })).toEqual({ path: file });
    expect(await client.request('fs/watch', { watchId: 'later', path: later })).toEqual({ path: later });
    const fileSeen = client.waitFor('fs/changed', changedFor('file', file));
    const toucher = setInterval(() => appendFileSync(file, 'x'), 300);
    try {
      expect(await fileSeen).toEqual({ watchId: 'file', changedPaths: [file] });
    } finally {
      clearInterval(toucher);
    }
    writeFileSync(later, 'now');
    expect(await client.waitFor('fs/changed', changedFor('later', later))).toEqual({ watchId: 'later', changedPaths: [later] });
  });

  it('follows a folder whose parents do not exist yet, through its deletion and re-creation, as Codex', async () => {
    const target = path.join(home.workspace, 'not', 'yet', 'there');
    expect(await client.request('fs/watch', { watchId: 'deep', path: target })).toEqual({ path: target });
    // Each step lets the previous change's re-arm begin; a watcher still arming picks up what it missed.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    const step = async (change: () => void, changedPath: string) => {
      await settle();
      const seen = client.notifications.length;
      const event = client.waitFor('fs/changed', (params) => client.notifications.length > seen && changedFor('deep', changedPath)(params), 10_000);
      change();
      return event;
    };
    // `mkdir -p` makes the whole chain at once: the target is reported, then its children.
    await step(() => mkdirSync(target, { recursive: true }), target);
    const inner = path.join(target, 'inner.txt');
    await step(() => writeFileSync(inner, 'x'), inner);
    // Deleted with its child, the folder is reported; made again, it and its new child are too.
    await step(() => rmSync(path.join(home.workspace, 'not'), { recursive: true }), target);
    await step(() => mkdirSync(target, { recursive: true }), target);
    const again = path.join(target, 'again.txt');
    expect(await step(() => writeFileSync(again, 'y'), again)).toEqual({ watchId: 'deep', changedPaths: [again] });
  }, 30_000);

  it('answers Codex errors: duplicate id, relative path, missing id; unknown unwatch is fine', async () => {
    await client.request('fs/watch', { watchId: 'dup', path: dir });
    expect(await client.requestReply('fs/watch', { watchId: 'dup', path: dir })).toEqual({ error: { code: -32600, message: 'watchId already exists: dup' } });
    expect(await client.requestReply('fs/watch', { watchId: 'rel', path: 'relative' })).toEqual({
      error: { code: -32600, message: 'Invalid request: AbsolutePathBuf deserialized without a base path' },
    });
    expect(await client.requestReply('fs/watch', { path: dir })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `watchId`' } });
    expect(await client.requestReply('fs/unwatch', {})).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `watchId`' } });
    expect(await client.request('fs/unwatch', { watchId: 'never-existed' })).toEqual({});
  });
});
