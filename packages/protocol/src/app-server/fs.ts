// The `fs/*` methods: whole-file reads and writes, directories, metadata, removal and copies on the
// server's machine, with absolute paths (CODEX-FACTS §12.10).
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';
import { lazySchema } from '../lazy-schema.js';

export const FsReadFileParams = lazySchema(() => z.object({ path: AbsolutePath }));
export type FsReadFileParams = z.infer<typeof FsReadFileParams>;
export const FsReadFileResponse = lazySchema(() => z.object({ dataBase64: z.string() }));
export type FsReadFileResponse = z.infer<typeof FsReadFileResponse>;

/** Creates or replaces a file; the parent directory must exist. */
export const FsWriteFileParams = lazySchema(() => z.object({ path: AbsolutePath, dataBase64: z.string() }));
export type FsWriteFileParams = z.infer<typeof FsWriteFileParams>;

/** `recursive` defaults to true (as Codex): missing parents are created. */
export const FsCreateDirectoryParams = lazySchema(() => z.object({ path: AbsolutePath, recursive: z.boolean().nullish() }));
export type FsCreateDirectoryParams = z.infer<typeof FsCreateDirectoryParams>;

export const FsGetMetadataParams = lazySchema(() => z.object({ path: AbsolutePath }));
export type FsGetMetadataParams = z.infer<typeof FsGetMetadataParams>;
/** `createdAtMs` is 0 where the filesystem records no birth time. */
export const FsGetMetadataResponse = lazySchema(() => z.object({
  isDirectory: z.boolean(),
  isFile: z.boolean(),
  isSymlink: z.boolean(),
  createdAtMs: z.number().int(),
  modifiedAtMs: z.number().int(),
}));
export type FsGetMetadataResponse = z.infer<typeof FsGetMetadataResponse>;

export const FsReadDirectoryParams = lazySchema(() => z.object({ path: AbsolutePath }));
export type FsReadDirectoryParams = z.infer<typeof FsReadDirectoryParams>;
/** A direct child; symlinks are described by their target. */
export const FsReadDirectoryEntry = lazySchema(() => z.object({ fileName: z.string(), isDirectory: z.boolean(), isFile: z.boolean() }));
export type FsReadDirectoryEntry = z.infer<typeof FsReadDirectoryEntry>;
/** Direct children in the order the OS lists them. */
export const FsReadDirectoryResponse = lazySchema(() => z.object({ entries: z.array(FsReadDirectoryEntry) }));
export type FsReadDirectoryResponse = z.infer<typeof FsReadDirectoryResponse>;

/** `recursive` and `force` default to true (as Codex): a missing path is not an error. */
export const FsRemoveParams = lazySchema(() => z.object({ path: AbsolutePath, recursive: z.boolean().nullish(), force: z.boolean().nullish() }));
export type FsRemoveParams = z.infer<typeof FsRemoveParams>;

/** Copying a directory needs `recursive: true`. */
export const FsCopyParams = lazySchema(() => z.object({ sourcePath: AbsolutePath, destinationPath: AbsolutePath, recursive: z.boolean().optional() }));
export type FsCopyParams = z.infer<typeof FsCopyParams>;

/** The empty result of `fs/writeFile`, `fs/createDirectory`, `fs/remove` and `fs/copy`. */
export const FsEmptyResponse = lazySchema(() => z.object({}));
export type FsEmptyResponse = z.infer<typeof FsEmptyResponse>;
