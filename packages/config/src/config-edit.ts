// Applies key-path edits to config.toml text in place: values change where they stand, comments and
// layout stay, new keys join their table and new tables are appended as `[a.b]` sections (as a person
// would add them). @decimalturn/toml-patch does the format-preserving rewrite.
import { parse as parseDocument, patch } from '@decimalturn/toml-patch';
import { ConfigWriteError } from './config-write-error.js';
import { splitKeyPath } from './split-key-path.js';

/** One edit: a dotted key, its new value (`null` removes the key) and how a table value applies. */
export interface ConfigEdit {
  /** Dotted (`a.b.c`), or the segments themselves when a key holds a dot. */
  readonly keyPath: string | readonly string[];
  readonly value: unknown;
  /** `replace` sets the value as given; `upsert` merges a table into the table already there. */
  readonly mergeStrategy: 'replace' | 'upsert';
}

type Table = Record<string, unknown>;

/** A TOML table as either parser hands it over (toml-patch's have no prototype); not an array or a date. */
function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `over` merged into `under` key by key, tables recursively. */
function merged(under: Table, over: Table): Table {
  const out: Table = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isTable(below) && isTable(value) ? merged(below, value) : value;
  }
  return out;
}

/** The table at `path` in `root`, created where missing; a non-table on the way is refused. */
function tableAt(root: Table, path: readonly string[], create: boolean): Table | undefined {
  let table = root;
  for (const key of path) {
    const next = table[key];
    if (next === undefined) {
      if (!create) return undefined;
      table[key] = {};
    } else if (!isTable(next)) {
      throw new ConfigWriteError('configValidationError', 'cannot set value on non-table parent');
    }
    table = table[key] as Table;
  }
  return table;
}

/** A TOML key: bare when it can be, else a basic string. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The document with a `[path]` header appended, when the edit needs a table that does not exist yet:
 * toml-patch would otherwise write it inline under its nearest existing parent. Unchanged when the
 * header cannot go there (a parent that is an inline table).
 */
function withNewSection(text: string, document: Table, path: readonly string[]): string {
  if (path.length === 0) return text;
  let table: unknown = document;
  for (const key of path) {
    if (!isTable(table)) return text;
    table = table[key];
    if (table === undefined) break;
  }
  if (table !== undefined) return text;
  const separator = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const extended = `${text}${separator}[${path.map(tomlKey).join('.')}]\n`;
  try {
    parseDocument(extended);
    return extended;
  } catch {
    return text;
  }
}

/** `path` and the path of every table nested in `value`, parents first: the sections a table value needs. */
function tablePaths(path: readonly string[], value: Table): string[][] {
  return [[...path], ...Object.entries(value).flatMap(([key, inner]) => (isTable(inner) ? tablePaths([...path, key], inner) : []))];
}

/** Parses config.toml text for editing; a syntax error is a validation error naming the position. */
function parseForEdit(text: string): Table {
  try {
    return parseDocument(text) as Table;
  } catch (error) {
    throw ConfigWriteError.invalid((error as Error).message.split('\n')[0] ?? 'not valid TOML');
  }
}

/** `text` with one edit applied. */
function applyEdit(text: string, edit: ConfigEdit): string {
  const path = splitKeyPath(edit.keyPath);
  const parentPath = path.slice(0, -1);
  const key = path.at(-1) ?? '';
  const remove = edit.value === null;
  // Refuse a non-table on the way before touching the text.
  tableAt(parseForEdit(text), parentPath, false);
  const sections = remove ? [] : isTable(edit.value) ? tablePaths(path, edit.value) : [parentPath];
  const source = sections.reduce((current, section) => withNewSection(current, parseForEdit(current), section), text);
  const document = parseForEdit(source);
  if (remove) {
    const parent = tableAt(document, parentPath, false);
    if (parent === undefined || !Object.hasOwn(parent, key)) return text;
    delete parent[key];
  } else {
    const parent = tableAt(document, parentPath, true) ?? document;
    const current = parent[key];
    parent[key] = edit.mergeStrategy === 'upsert' && isTable(current) && isTable(edit.value) ? merged(current, edit.value) : edit.value;
  }
  // New tables become `[sections]` at any depth, as Codex writes them; new arrays follow the file's
  // style (`[ "a" ]` when it has one like it), else Codex's `["a"]`.
  const bracketSpacing = /=[ \t]*[[{][ \t]+\S/.test(source);
  const out = patch(source, document, { inlineTableStart: Number.MAX_SAFE_INTEGER, bracketSpacing });
  return out === '' || out.endsWith('\n') ? out : `${out}\n`;
}

/**
 * `text` (a config.toml) with `edits` applied in order, keeping comments, order and layout. Values
 * must be TOML-representable (JSON values are). Validation of keys and values is the caller's.
 *
 * @throws ConfigWriteError (`configValidationError`) for an empty key path, a key below a non-table
 *   value, or text that is not TOML.
 * @example applyConfigEdits('model = "a" # mine\n', [{ keyPath: 'model', value: 'b', mergeStrategy: 'replace' }])
 *   // 'model = "b" # mine\n'
 */
export function applyConfigEdits(text: string, edits: readonly ConfigEdit[]): string {
  return edits.reduce(applyEdit, text);
}
