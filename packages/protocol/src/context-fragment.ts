// Context fragments: the tagged texts Skein, Codex and extensions put in front of the model. One
// definition both renders a fragment and recognises it in recorded history, so core, extensions
// and rollout share the same markers and nothing keeps a second list of prefixes.
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Who a fragment speaks as in the model's input. */
export const ContextFragmentRole = lazySchema(() => z.enum(['developer', 'user']));
export type ContextFragmentRole = z.infer<typeof ContextFragmentRole>;

/** A rendered fragment: what a context contributor returns and core sends as one message part. */
export const ContextFragment = lazySchema(() => z.object({
  /** The `kind` of the definition that rendered it. */
  kind: z.string(),
  role: ContextFragmentRole,
  text: z.string(),
}));
export type ContextFragment = z.infer<typeof ContextFragment>;

/**
 * What defines a fragment. `kind` names it (`<area>.<name>`; for Codex's own fragments it is the
 * `content_item_kinds` label Codex 0.171.0 records, e.g. `environments.environment_context`).
 */
export const ContextFragmentSpec = lazySchema(() => z.object({
  kind: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'a fragment kind reads `<area>.<name>` in lower case'),
  role: ContextFragmentRole,
  /** The text the fragment opens with, e.g. `<todo_list>`; it recognises the fragment in history. */
  open: z.string().refine((text) => text.trim() !== '', 'a fragment needs an open marker'),
  /** The text the fragment closes with, e.g. `</todo_list>`. */
  close: z.string().refine((text) => text.trim() !== '', 'a fragment needs a close marker'),
  /** What goes between each marker and the body; Codex's tagged fragments put a newline there. */
  separator: z.string().default('\n'),
}));
export type ContextFragmentSpec = z.input<typeof ContextFragmentSpec>;

/** A fragment definition: its markers, how to render a body, and how to recognise the result. */
export interface ContextFragmentDefinition {
  readonly kind: string;
  readonly role: ContextFragmentRole;
  readonly open: string;
  readonly close: string;
  readonly separator: string;
  /** `open + separator + body + separator + close`, as the fragment of this kind. */
  render(body: string): ContextFragment;
  /** Whether `text` is a fragment of this kind: it opens and closes with the markers (ASCII case ignored, outer whitespace too). */
  matches(text: string): boolean;
}

/**
 * Defines a fragment. Throws a ZodError for a spec that cannot be recognised reliably (no markers,
 * a kind that is not `<area>.<name>`).
 *
 * @example
 * const TODO_LIST = defineContextFragment({ kind: 'todo.list', role: 'user', open: '<todo_list>', close: '</todo_list>' });
 * TODO_LIST.render('- [ ] ship it').text; // '<todo_list>\n- [ ] ship it\n</todo_list>'
 */
export function defineContextFragment(spec: ContextFragmentSpec): ContextFragmentDefinition {
  const { kind, role, open, close, separator } = ContextFragmentSpec.parse(spec);
  // Codex compares markers without regard to ASCII case (`# agents.md instructions`), so do we.
  const openLower = open.trimStart().toLowerCase();
  const closeLower = close.trimEnd().toLowerCase();
  return Object.freeze({
    kind,
    role,
    open,
    close,
    separator,
    render: (body: string): ContextFragment => ({ kind, role, text: `${open}${separator}${body}${separator}${close}` }),
    matches: (text: string): boolean => {
      const trimmed = text.trim().toLowerCase();
      return trimmed.startsWith(openLower) && trimmed.endsWith(closeLower);
    },
  });
}

/**
 * Whether two open markers could be taken for each other in history: equal, or one a prefix of the
 * other (ASCII case ignored), so a text opening with the longer one opens with the shorter too.
 */
export function contextFragmentMarkersCollide(a: string, b: string): boolean {
  const [left, right] = [a.trim().toLowerCase(), b.trim().toLowerCase()];
  return left.startsWith(right) || right.startsWith(left);
}

/** The definition among `definitions` that `text` is a fragment of, if any. */
export function recognizeContextFragment(text: string, role: ContextFragmentRole, definitions: readonly ContextFragmentDefinition[]): ContextFragmentDefinition | undefined {
  return definitions.find((definition) => definition.role === role && definition.matches(text));
}
