// The `fs/*` methods: whole-file reads and writes, directories, metadata, removal and copies on the
// server's machine, with absolute paths (CODEX-FACTS §12.10).
import * as z from 'zod';
import { AbsolutePath } from './absolute-path.js';

export const FsReadFileParams = z.object({ path: AbsolutePath });
export type FsReadFileParams = z.infer<typeof FsReadFileParams>;
export const FsReadFileResponse = z.object({ dataBase64: z.string() });
export type FsReadFileResponse = z.infer<typeof FsReadFileResponse>;

/** Creates or replaces a file; the parent directory must exist. */
export const FsWriteFileParams = z.object({ path: AbsolutePath, dataBase64: z.string() });
export type FsWriteFileParams = z.infer<typeof FsWriteFileParams>;

/** `recursive` defaults to true (as Codex): missing parents are created. */
export const FsCreateDirectoryParams = z.object({ path: AbsolutePath, recursive: z.boolean().nullish() });
export type FsCreateDirectoryParams = z.infer<typeof FsCreateDirectoryParams>;

export const FsGetMetadataParams = z.object({ path: AbsolutePath });
export type FsGetMetadataParams = z.infer<typeof FsGetMetadataParams>;
/** `createdAtMs` is 0 where the filesystem records no birth time. */
export const FsGetMetadataResponse = z.object({
  isDirectory: z.boolean(),
  isFile: z.boolean(),
  isSymlink: z.boolean(),
  createdAtMs: z.number().int(),
  modifiedAtMs: z.number().int(),
});
export type FsGetMetadataResponse = z.infer<typeof FsGetMetadataResponse>;

export const FsReadDirectoryParams = z.object({ path: AbsolutePath });
export type FsReadDirectoryParams = z.infer<typeof FsReadDirectoryParams>;
/** A direct child; symlinks are described by their target. */
export const FsReadDirectoryEntry = z.object({ fileName: z.string(), isDirectory: z.boolean(), isFile: z.boolean() });
export type FsReadDirectoryEntry = z.infer<typeof FsReadDirectoryEntry>;
/** Direct children in the order the OS lists them. */
export const FsReadDirectoryResponse = z.object({ entries: z.array(FsReadDirectoryEntry) });
export type FsReadDirectoryResponse = z.infer<typeof FsReadDirectoryResponse>;

/** `recursive` and `force` default to true (as Codex): a missing path is not an error. */
export const FsRemoveParams = z.object({ path: AbsolutePath, recursive: z.boolean().nullish(), force: z.boolean().nullish() });
export type FsRemoveParams = z.infer<typeof FsRemoveParams>;

/** Copying a directory needs `recursive: true`. */
export const FsCopyParams = z.object({ sourcePath: AbsolutePath, destinationPath: AbsolutePath, recursive: z.boolean().optional() });
export type FsCopyParams = z.infer<typeof FsCopyParams>;

/** The empty result of `fs/writeFile`, `fs/createDirectory`, `fs/remove` and `fs/copy`. */
export const FsEmptyResponse = z.object({});
export type FsEmptyResponse = z.infer<typeof FsEmptyResponse>;
