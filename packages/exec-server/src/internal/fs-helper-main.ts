// The sandboxed fs helper's loop: runs each request against the plain local filesystem — inside the
// sandbox, so the policy applies — and answers in order. Exits when its input ends.
import type { Readable, Writable } from 'node:stream';
import { lazySchema, PathUriString } from '@skein/protocol/executor';
import * as z from 'zod';
import type { BlockReader } from '../block-reader.js';
import { FileSystemError } from '../file-system-error.js';
import { DirectFileSystem } from '../local/direct-file-system.js';
import { toBase64 } from '../protocol/base64-bytes.js';
import { FsCopyParams, FsPathParams, FsReadBlockParams, FsWalkParams, FsWriteFileParams } from '../protocol/messages.js';
import { LineSplitter } from '@skein/json-rpc/framing';
import { HelperRequest, MAX_HELPER_LINE_BYTES, type HelperOperation, type HelperResponse } from './helper-protocol.js';

const CreateDirectoryParams = lazySchema(() => z.object({ path: PathUriString, recursive: z.boolean() }));
const GetMetadataParams = lazySchema(() => z.object({ path: PathUriString, followSymlinks: z.boolean() }));
const RemoveParams = lazySchema(() => z.object({ path: PathUriString, recursive: z.boolean(), force: z.boolean() }));

/** Serves helper requests from `input` until it ends. */
export async function runFsHelper(input: Readable, output: Writable): Promise<void> {
  const fileSystem = new DirectFileSystem();
  let reader: BlockReader | undefined;

  const perform = async (op: HelperOperation, params: unknown): Promise<unknown> => {
    switch (op) {
      case 'canonicalize':
        return { path: await fileSystem.canonicalize(FsPathParams.parse(params).path) };
      case 'readFile':
        return { dataBase64: toBase64(await fileSystem.readFile(FsPathParams.parse(params).path)) };
      case 'writeFile': {
        const { path, dataBase64 } = FsWriteFileParams.parse(params);
        await fileSystem.writeFile(path, dataBase64);
        return {};
      }
      case 'createDirectory': {
        const { path, recursive } = CreateDirectoryParams.parse(params);
        await fileSystem.createDirectory(path, { recursive });
        return {};
      }
      case 'getMetadata': {
        const { path, followSymlinks } = GetMetadataParams.parse(params);
        return fileSystem.getMetadata(path, { followSymlinks });
      }
      case 'readDirectory':
        return { entries: await fileSystem.readDirectory(FsPathParams.parse(params).path) };
      case 'walk': {
        const { path, options } = FsWalkParams.parse(params);
        return fileSystem.walk(path, options);
      }
      case 'remove': {
        const { path, recursive, force } = RemoveParams.parse(params);
        await fileSystem.remove(path, { recursive, force });
        return {};
      }
      case 'copy': {
        const { sourcePath, destinationPath, recursive } = FsCopyParams.parse(params);
        await fileSystem.copy(sourcePath, destinationPath, { recursive });
        return {};
      }
      case 'open':
        if (reader !== undefined) throw new FileSystemError('InvalidArgument', 'this helper already has a file open');
        reader = await fileSystem.openBlockReader(FsPathParams.parse(params).path);
        return {};
      case 'readBlock': {
        if (reader === undefined) throw new FileSystemError('InvalidArgument', 'no file is open in this helper');
        const { offset, len } = FsReadBlockParams.omit({ handleId: true }).parse(params);
        const block = await reader.readBlock(offset, len);
        return { chunk: toBase64(block.chunk), eof: block.eof };
      }
      case 'close':
        await reader?.close();
        reader = undefined;
        return {};
    }
  };

  const answer = (response: HelperResponse): void => {
    output.write(`${JSON.stringify(response)}\n`);
  };

  // Requests are handled strictly in order: the executor sends one at a time anyway.
  let chain = Promise.resolve();
  const handle = (line: string): void => {
    chain = chain.then(async () => {
      let request: HelperRequest;
      try {
        request = HelperRequest.parse(JSON.parse(line));
      } catch (error) {
        answer({ id: -1, error: { code: 'InvalidArgument', message: `malformed helper request: ${(error as Error).message}` } });
        return;
      }
      try {
        answer({ id: request.id, result: await perform(request.op, request.params) });
      } catch (error) {
        if (error instanceof FileSystemError) {
          answer({ id: request.id, error: { code: error.code, message: error.message, ...(error.errno === undefined ? {} : { errno: error.errno }) } });
        } else {
          answer({ id: request.id, error: { code: 'Io', message: error instanceof Error ? error.message : String(error) } });
        }
      }
    });
  };

  const splitter = new LineSplitter(MAX_HELPER_LINE_BYTES, {
    line: handle,
    oversized: (_head, bytes) => answer({ id: -1, error: { code: 'TooLarge', message: `helper request of ${bytes} bytes is too large` } }),
  });
  await new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer) => splitter.push(chunk));
    input.once('end', resolve);
    input.once('error', () => resolve());
  });
  await chain;
  await reader?.close();
}
