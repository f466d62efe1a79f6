// The parts of a Responses API request body the mock reads. Loose objects: every field the client
// sent is kept, so tests can assert on fields this package does not know about.
import * as z from 'zod';

/** One item of `input`: only `type` is required; everything else is kept as sent. */
export const ResponsesInputItem = z.looseObject({ type: z.string() });
/** One item of `input`. */
export type ResponsesInputItem = z.infer<typeof ResponsesInputItem>;

/**
 * One entry of `tools` (or of an `additional_tools` item): `function`, `custom`, `namespace` (which
 * holds its own `tools`), or a hosted tool such as `web_search` that has no name.
 */
export const ResponsesTool = z.looseObject({ type: z.string(), name: z.string().optional() });
/** One entry of `tools`. */
export type ResponsesTool = z.infer<typeof ResponsesTool>;

/** A `POST /responses` body as far as the mock needs it. */
export const ResponsesRequestBody = z.looseObject({
  model: z.string(),
  input: z.array(ResponsesInputItem),
  stream: z.boolean().optional(),
  tools: z.array(ResponsesTool).optional(),
});
/** A `POST /responses` body. */
export type ResponsesRequestBody = z.infer<typeof ResponsesRequestBody>;
