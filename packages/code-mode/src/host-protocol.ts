// The messages between a parent and its code-mode host process: one JSON object per line, parsed
// with zod on both sides. Values a cell exchanges with its tools travel as JSON text, so nothing but
// strings ever crosses into or out of an isolate.
import * as z from 'zod';

/** A tool a cell may call: `tools.<name>(…)`, listed in `ALL_TOOLS`. */
export const CellToolInfo = z.object({ name: z.string().min(1), description: z.string() });
export type CellToolInfo = z.infer<typeof CellToolInfo>;

/** What bounds one cell. */
export const CellLimits = z.object({
  /** The isolate's heap. */
  memoryBytes: z.number().int().positive(),
  /** How long the cell's JavaScript may run without giving control back (awaiting a tool, a timer). */
  cpuSliceMs: z.number().int().positive(),
});
export type CellLimits = z.infer<typeof CellLimits>;

// A plain union: `result` comes in two shapes (ok or not), which a discriminated union cannot key.
export const ParentMessage = z.union([
  z.object({
    type: z.literal('start'),
    cell: z.number().int(),
    source: z.string(),
    tools: z.array(CellToolInfo),
    /** The session's `store()` values (JSON text per key), readable with `load()`. */
    store: z.record(z.string(), z.string()),
    limits: CellLimits,
  }),
  z.object({ type: z.literal('result'), cell: z.number().int(), call: z.number().int(), ok: z.literal(true), json: z.string() }),
  z.object({ type: z.literal('result'), cell: z.number().int(), call: z.number().int(), ok: z.literal(false), error: z.string() }),
  z.object({ type: z.literal('terminate'), cell: z.number().int() }),
]);
export type ParentMessage = z.infer<typeof ParentMessage>;

/** How a cell ended. */
export const CellEnd = z.enum(['completed', 'failed', 'terminated']);
export type CellEnd = z.infer<typeof CellEnd>;

export const HostMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /**
   * The cell's module ran up to its first await (what it printed until then came first): its yield
   * time counts from here. A cell that ended in that first slice sends `done` instead.
   */
  z.object({ type: z.literal('started'), cell: z.number().int() }),
  z.object({ type: z.literal('call'), cell: z.number().int(), call: z.number().int(), tool: z.string(), json: z.string() }),
  z.object({ type: z.literal('text'), cell: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('image'), cell: z.number().int(), url: z.string(), detail: z.string().optional() }),
  z.object({ type: z.literal('notify'), cell: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('store'), cell: z.number().int(), key: z.string(), json: z.string() }),
  z.object({ type: z.literal('yield'), cell: z.number().int() }),
  z.object({ type: z.literal('done'), cell: z.number().int(), end: CellEnd, error: z.string().optional() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;
