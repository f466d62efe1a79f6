// What `skein exec` reads before a thread starts: the prompt (argument, stdin, or both), attached
// images, the output schema. Each refusal names the flag and happens before any thread exists.
import { readFile, stat } from 'node:fs/promises';
import { ConfigError } from '@skein/config';
import { MAX_LOCAL_IMAGE_BYTES } from '@skein/core';
import type { ExecIo } from '../commands/exec.js';

/**
 * The prompt: the argument, or stdin when there is none (or it is `-`). Input piped alongside an
 * argument is appended in a `<stdin>` block, as `codex exec` does, so `cat log | skein exec "why?"` works.
 */
export async function promptFrom(argument: string | undefined, io: ExecIo): Promise<string> {
  if (argument === undefined || argument === '-') return readPrompt(io);
  if (io.stdinIsTerminal !== false) return argument;
  const piped = (await io.readStdin()).replace(/\s+$/, '');
  return piped.trim() === '' ? argument : `${argument}\n\n<stdin>\n${piped}\n</stdin>`;
}

async function readPrompt(io: ExecIo): Promise<string> {
  io.stderr('Reading prompt from stdin...\n');
  const text = (await io.readStdin()).trim();
  if (text === '') throw new ConfigError('InvalidValue', 'exec', undefined, 'no prompt given: pass one as an argument or on stdin');
  return text;
}

/** Fails before any thread is created when an attached image cannot be sent. */
export async function checkImage(file: string): Promise<void> {
  const size = await stat(file).then(
    (info) => (info.isFile() ? info.size : undefined),
    () => undefined,
  );
  if (size === undefined) throw new ConfigError('InvalidValue', `--image ${file}`, undefined, 'no such file');
  if (!/\.(png|jpe?g|gif|webp)$/i.test(file)) throw new ConfigError('InvalidValue', `--image ${file}`, undefined, 'not a PNG, JPEG, GIF or WebP image');
  if (size > MAX_LOCAL_IMAGE_BYTES) throw new ConfigError('InvalidValue', `--image ${file}`, undefined, `${size} bytes; images up to ${MAX_LOCAL_IMAGE_BYTES} bytes can be sent`);
}

/** The JSON file `--output-schema` names. */
export async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw new ConfigError('InvalidValue', `--output-schema ${file}`, undefined, `cannot read a JSON Schema: ${(error as Error).message}`);
  }
}
