// `fs/*`: whole-file reads and writes, directories, metadata, removal and copies on the server's
// machine, through the server's ExecutorFileSystem (CODEX-FACTS §12.10).
import {
  AppServerErrorCode,
  FsCopyParams,
  FsCreateDirectoryParams,
  FsGetMetadataParams,
  FsReadDirectoryParams,
  FsReadFileParams,
  FsRemoveParams,
  FsWriteFileParams,
  PathUri,
  type FsGetMetadataResponse,
  type FsReadDirectoryResponse,
  type FsReadFileResponse,
} from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

const CONVENTION = process.platform === 'win32' ? 'windows' : 'posix';
function uri(path: string): PathUri {
  return PathUri.fromNativePath(path, CONVENTION);
}

/** Strict standard base64 (padding required), as Codex's decoder is; Buffer alone would skip bad symbols. */
function decodeBase64(method: string, text: string): Uint8Array {
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  if (bad !== -1) {
    throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `${method} requires valid base64 dataBase64: invalid symbol ${text.charCodeAt(bad)} at offset ${bad}`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `${method} requires valid base64 dataBase64: invalid length or padding`);
  }
  return Buffer.from(text, 'base64');
}

/** The `fs/*` methods. */
export const FS_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'fs/readFile',
    defineMethod({
      params: FsReadFileParams,
      async handle(params, { server }): Promise<FsReadFileResponse> {
        const data = await server.fileSystem.readFile(uri(params.path));
        return { dataBase64: Buffer.from(data).toString('base64') };
      },
    }),
  ],
  [
    'fs/writeFile',
    defineMethod({
      params: FsWriteFileParams,
      async handle(params, { server }) {
        await server.fileSystem.writeFile(uri(params.path), decodeBase64('fs/writeFile', params.dataBase64));
        return {};
      },
    }),
  ],
  [
    'fs/createDirectory',
    defineMethod({
      params: FsCreateDirectoryParams,
      async handle(params, { server }) {
        await server.fileSystem.createDirectory(uri(params.path), { recursive: params.recursive ?? true });
        return {};
      },
    }),
  ],
  [
    'fs/getMetadata',
    defineMethod({
      params: FsGetMetadataParams,
      async handle(params, { server }): Promise<FsGetMetadataResponse> {
        const { isDirectory, isFile, isSymlink, createdAtMs, modifiedAtMs } = await server.fileSystem.getMetadata(uri(params.path));
        return { isDirectory, isFile, isSymlink, createdAtMs, modifiedAtMs };
      },
    }),
  ],
  [
    'fs/readDirectory',
    defineMethod({
      params: FsReadDirectoryParams,
      async handle(params, { server }): Promise<FsReadDirectoryResponse> {
        const entries = await server.fileSystem.readDirectory(uri(params.path));
        return { entries: entries.map(({ fileName, isDirectory, isFile }) => ({ fileName, isDirectory, isFile })) };
      },
    }),
  ],
  [
    'fs/remove',
    defineMethod({
      params: FsRemoveParams,
      async handle(params, { server }) {
        await server.fileSystem.remove(uri(params.path), { recursive: params.recursive ?? true, force: params.force ?? true });
        return {};
      },
    }),
  ],
  [
    'fs/copy',
    defineMethod({
      params: FsCopyParams,
      async handle(params, { server }) {
        await server.fileSystem.copy(uri(params.sourcePath), uri(params.destinationPath), { recursive: params.recursive ?? false });
        return {};
      },
    }),
  ],
]);
