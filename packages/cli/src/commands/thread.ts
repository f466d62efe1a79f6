// `skein thread export <id>` and `skein thread import <file>`: a thread's Codex JSONL rollout out of
// the configured store (files or PostgreSQL), so `codex resume` and tools that read rollouts can
// use it, and one brought back in. The output file appears whole or not at all.
import type { ThreadStore } from '@skein/rollout';
import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfigFor, type GlobalOptions } from '../global-options.js';
import type { ProgramIo } from '../program.js';

/** Adds `thread export` and `thread import` to `program`. */
export function addThreadCommand(program: Command, io: ProgramIo): void {
  const thread = program.command('thread').description('move threads in and out of the thread store');
  thread
    .command('export')
    .description("write a thread's Codex JSONL rollout to stdout or a file")
    .argument('<thread-id>', 'the thread to export')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (threadId: string, options: { output?: string }, command: Command) => {
      await withStore(command.optsWithGlobals<GlobalOptions>(), io, async (store) => {
        if (options.output === undefined) {
          await store.exportRollout(threadId, (line) => io.stdout(`${line}\n`));
          return;
        }
        const target = path.resolve(io.cwd, options.output);
        const partial = `${target}.${process.pid}.partial`;
        const handle = await open(partial, 'wx');
        try {
          await store.exportRollout(threadId, async (line) => {
            await handle.write(`${line}\n`);
          });
          await handle.datasync();
          await handle.close();
          await rename(partial, target);
        } catch (error) {
          await handle.close().catch(() => undefined);
          await unlink(partial).catch(() => undefined);
          throw error;
        }
        io.stderr(`exported thread ${threadId} to ${target}\n`);
      });
    });
  thread
    .command('import')
    .description('store a Codex JSONL rollout as a thread (it keeps its id)')
    .argument('<file>', 'the rollout to import')
    .action(async (file: string, _options: unknown, command: Command) => {
      const source = path.resolve(io.cwd, file);
      const { readImportedRollout } = await import('@skein/rollout');
      const rollout = await readImportedRollout(createInterface({ input: createReadStream(source, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY }), source);
      await withStore(command.optsWithGlobals<GlobalOptions>(), io, async (store) => {
        const summary = await store.importRollout(rollout);
        io.stdout(`${summary.id}\n`);
        io.stderr(`imported thread ${summary.id}${summary.title === null ? '' : ` (${summary.title.slice(0, 60)})`}\n`);
      });
    });
}

/** Opens the store the config names for `work`, and closes it after. */
async function withStore(options: GlobalOptions, io: ProgramIo, work: (store: ThreadStore) => Promise<void>): Promise<void> {
  const { config, warnings } = await loadConfigFor(options, io);
  for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
  const { openThreadStore } = await import('@skein/app-server/thread-store');
  const store = await openThreadStore(config.threadStore, { home: config.homeDir, env: io.env, contextFragments: [], reconcileOnOpen: true, onWarning: (message) => io.stderr(`warning: ${message}\n`) });
  try {
    await work(store);
  } finally {
    await store.close();
  }
}
