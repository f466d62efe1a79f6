// The `apply_patch` freeform tool: Codex's grammar offered to the model, the patch parsed, planned
// against the executor's filesystem, written all-or-nothing, and answered in Codex's output format.
import type { CustomToolHandler, ToolContext, ToolResult } from '@skein/extension-api';
import type { CustomToolSpec, PathUri } from '@skein/protocol';
import { requireEnvironment } from '../require-environment.js';
import { applyPlannedChanges } from './apply-planned-changes.js';
import { parsePatch, PatchParseError } from './parse-patch.js';
import type { Patch } from './patch.js';
import { unifiedDiff } from './unified-diff.js';
import { PatchApplyError, planPatch, resolvePatchPath, type FileChange } from './plan-patch.js';

/** The Lark grammar Codex 0.171.0 offers for `apply_patch`, byte for byte (constrained sampling depends on it). */
export const APPLY_PATCH_LARK_GRAMMAR = [
  'start: begin_patch hunk+ end_patch',
  'begin_patch: "*** Begin Patch" LF',
  'end_patch: "*** End Patch" LF?',
  '',
  'hunk: add_hunk | delete_hunk | update_hunk',
  'add_hunk: "*** Add File: " filename LF add_line+',
  'delete_hunk: "*** Delete File: " filename LF',
  'update_hunk: "*** Update File: " filename LF change_move? change?',
  '',
  'filename: /(.+)/',
  'add_line: "+" /(.*)/ LF -> line',
  '',
  'change_move: "*** Move to: " filename LF',
  'change: (change_context | change_line)+ eof_line?',
  'change_context: ("@@" | "@@ " /(.+)/) LF',
  'change_line: ("+" | "-" | " ") /(.*)/ LF',
  'eof_line: "*** End of File" LF',
  '',
  '%import common.LF',
  '',
].join('\n');

const DESCRIPTION = [
  'Edit files with a patch. Send the patch as the whole input, in this form:',
  '*** Begin Patch',
  '*** Add File: <path>        then every line of the new file, each prefixed with +',
  '*** Delete File: <path>',
  '*** Update File: <path>     optionally followed by *** Move to: <new path>, then one or more changes:',
  '@@ <a line just above the change, such as a function header; may be left empty>',
  ' a context line (a space, then the line as it is)',
  '-a line to remove',
  '+a line to add',
  '*** End of File             only when the change must sit at the very end of the file',
  '*** End Patch',
  'Paths are relative to the working directory. Give about three lines of context around each change, and add',
  'another @@ line when that is not enough to find the place. The patch applies completely or not at all.',
].join('\n');

/**
 * The grammar Codex offers when two or more environments are attached: an optional
 * `*** Environment ID: <id>` line after `*** Begin Patch`.
 */
export const APPLY_PATCH_LARK_GRAMMAR_WITH_ENVIRONMENT = APPLY_PATCH_LARK_GRAMMAR.replace(
  'start: begin_patch hunk+ end_patch\n',
  'start: begin_patch environment_id? hunk+ end_patch\nenvironment_id: "*** Environment ID: " filename LF\n',
);

/** The tool definition sent to the model. */
export const APPLY_PATCH_TOOL_SPEC: CustomToolSpec = {
  type: 'custom',
  name: 'apply_patch',
  description: DESCRIPTION,
  format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR },
};

/** The definition with the environment line, for threads with more than one environment. */
export const APPLY_PATCH_TOOL_SPEC_WITH_ENVIRONMENT: CustomToolSpec = {
  ...APPLY_PATCH_TOOL_SPEC,
  description: `${DESCRIPTION}\nTo patch another environment than the primary one, put \`*** Environment ID: <id>\` right after \`*** Begin Patch\`.`,
  format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR_WITH_ENVIRONMENT },
};

/** One file a successful patch changed, for client events. Paths are absolute native paths. */
export interface PatchFileSummary {
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  /** Where an updated file was moved. */
  readonly movePath?: string;
  /** What changes: an added file's contents, a deleted file's old contents, an update's unified-diff hunks; empty when unknown. */
  readonly diff: string;
}

/** One file a patch wrote: where, and its bytes before and after (null: absent). */
export interface PatchedFile {
  /** The file's absolute native path. */
  readonly path: string;
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
}

/** Options of {@link applyPatchTool}. */
export interface ApplyPatchToolOptions {
  /** Milliseconds, for the reported wall time. */
  now(): number;
  /**
   * The files a patch changed (`success: true`) or set out to change and did not (`success: false`,
   * for a patch that parsed but could not be applied; nothing was written).
   */
  onChanges?(summary: readonly PatchFileSummary[], context: ToolContext, success: boolean, output: string): void;
  /** After a patch was written: each file it wrote, before and after, in patch order, and the cwd it ran in. */
  onApplied?(files: readonly PatchedFile[], context: ToolContext, cwd: string): void;
  /** Offer the `*** Environment ID:` line (two or more environments attached). */
  readonly environmentChoice?: boolean | undefined;
}

/**
 * The `apply_patch` custom tool, acting on the call environment's files under its sandbox. The
 * approval layer sees the planned changes before anything is written. Success answers
 * `Exit code: 0` with Codex's file list (`A`, then `M` — a moved file under its new path —, then
 * `D`, paths as the patch wrote them); any failure answers `Exit code: 1` with the reason and leaves
 * every file as it was.
 */
export function applyPatchTool(options: ApplyPatchToolOptions): CustomToolHandler {
  return {
    kind: 'custom',
    spec: options.environmentChoice === true ? APPLY_PATCH_TOOL_SPEC_WITH_ENVIRONMENT : APPLY_PATCH_TOOL_SPEC,
    async handle(input, context): Promise<ToolResult> {
      const started = options.now();
      const { fileSystem: fs, cwd, sandbox } = requireEnvironment(context);
      const call = { sandbox };
      let patch: Patch | undefined;
      let changes: FileChange[];
      try {
        patch = parsePatch(input);
        changes = await planPatch(patch, fs, cwd, call);
        const authorization = await context.approvals.patch(changes.map(summarize), input);
        if (authorization.type === 'rejected') {
          options.onChanges?.(changes.map(summarize), context, false, `${authorization.output}\n`);
          return answer(1, started, `${authorization.output}\n`);
        }
        // An interrupt that arrives while planning or asking stops the patch before its first write.
        context.signal.throwIfAborted();
        await applyPlannedChanges(changes, fs, authorization.sandboxed ? call : { sandbox: null });
      } catch (error) {
        if (error instanceof PatchParseError) return answer(1, started, `invalid patch: line ${error.line}: ${error.message}\n`);
        if (error instanceof PatchApplyError) {
          if (patch !== undefined) options.onChanges?.(intendedChanges(patch, cwd), context, false, `${error.message}\n`);
          return answer(1, started, `${error.message}\n`);
        }
        throw error;
      }
      const output = successText(changes);
      options.onChanges?.(changes.map(summarize), context, true, output);
      options.onApplied?.(patchedFiles(changes), context, cwd.toNativePath(cwd.convention));
      return answer(0, started, output);
    },
  };

  function answer(exitCode: 0 | 1, started: number, output: string): ToolResult {
    // Codex rounds to one decimal and prints the shortest form: 0, 0.1, 2.5.
    const seconds = Math.round(Math.max(0, options.now() - started) / 100) / 10;
    const text = `Exit code: ${exitCode}\nWall time: ${seconds} seconds\nOutput:\n${output}`;
    // A code-mode cell's `await tools.apply_patch(…)` resolves to `{}` (as Codex's); a failure rejects with the text.
    return exitCode === 0 ? { output: text, success: true, structured: {} } : { output: text, success: false };
  }
}

/** What each change wrote, before and after (a move: its source removed, its target written). */
function patchedFiles(changes: readonly FileChange[]): PatchedFile[] {
  const native = (where: PathUri) => where.toNativePath(where.convention);
  const encoder = new TextEncoder();
  return changes.flatMap((change): PatchedFile[] => {
    switch (change.kind) {
      case 'add':
        return [{ path: native(change.path), before: change.previous, after: encoder.encode(change.contents) }];
      case 'delete':
        return [{ path: native(change.path), before: change.previous, after: null }];
      case 'update':
        if (change.move === undefined) return [{ path: native(change.path), before: change.previous, after: encoder.encode(change.contents) }];
        return [
          { path: native(change.path), before: change.previous, after: null },
          { path: native(change.move.path), before: change.move.previous, after: encoder.encode(change.contents) },
        ];
    }
  });
}

/** Codex's success text: added, then modified, then deleted files, one per line. */
export function successText(changes: readonly FileChange[]): string {
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const change of changes) {
    switch (change.kind) {
      case 'add':
        added.push(`A ${change.displayPath}`);
        break;
      case 'update':
        modified.push(`M ${change.move?.displayPath ?? change.displayPath}`);
        break;
      case 'delete':
        deleted.push(`D ${change.displayPath}`);
        break;
    }
  }
  return ['Success. Updated the following files:', ...added, ...modified, ...deleted, ''].join('\n');
}

/** What a parsed patch set out to change, for reporting a patch that failed (paths that cannot be resolved are left out). */
function intendedChanges(patch: Patch, cwd: PathUri): PatchFileSummary[] {
  const native = (written: string) => {
    try {
      const path = resolvePatchPath(cwd, written);
      return path.toNativePath(path.convention);
    } catch {
      return undefined;
    }
  };
  return patch.hunks.flatMap((hunk): PatchFileSummary[] => {
    const path = native(hunk.path);
    if (path === undefined) return [];
    // The patch did not apply, so there is no computed change to show.
    if (hunk.kind !== 'update' || hunk.movePath === undefined) return [{ path, kind: hunk.kind, diff: '' }];
    const movePath = native(hunk.movePath);
    return [movePath === undefined ? { path, kind: 'update', diff: '' } : { path, kind: 'update', movePath, diff: '' }];
  });
}

function summarize(change: FileChange): PatchFileSummary {
  const native = (path: PathUri) => path.toNativePath(path.convention);
  switch (change.kind) {
    case 'add':
      return { path: native(change.path), kind: 'add', diff: change.contents };
    case 'delete':
      return { path: native(change.path), kind: 'delete', diff: textDecoder.decode(change.previous) };
    case 'update': {
      const diff = unifiedDiff(textDecoder.decode(change.previous), change.contents);
      return change.move === undefined ? { path: native(change.path), kind: 'update', diff } : { path: native(change.path), kind: 'update', movePath: native(change.move.path), diff };
    }
  }
}

const textDecoder = new TextDecoder();
