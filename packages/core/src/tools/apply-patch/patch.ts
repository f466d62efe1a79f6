// The parsed form of an apply_patch input: which files to add, delete or update, and the chunks of
// an update. Paths stay as the model wrote them; resolving them against the cwd is planning's job.

/** One `@@` section of an update: lines to find (`oldLines`) and what replaces them (`newLines`). */
export interface UpdateChunk {
  /** The text after `@@ `: a line (often a function header) the old lines must come after. */
  readonly context: string | undefined;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
  /** Set by `*** End of File`: the old lines are looked for at the end of the file first. */
  readonly endOfFile: boolean;
  /** 1-based line of the patch where the chunk starts, for error messages. */
  readonly line: number;
}

/** One file operation of a patch. */
export type PatchHunk =
  | { readonly kind: 'add'; readonly path: string; readonly contents: string; readonly line: number }
  | { readonly kind: 'delete'; readonly path: string; readonly line: number }
  | {
      readonly kind: 'update';
      readonly path: string;
      /** `*** Move to:` destination, as written. */
      readonly movePath: string | undefined;
      readonly chunks: readonly UpdateChunk[];
      readonly line: number;
    };

/** A whole patch: its file operations in the order they appear (and are applied). */
export interface Patch {
  readonly hunks: readonly PatchHunk[];
}
