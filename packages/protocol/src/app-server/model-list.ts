// `model/list`: the models a client may pick, from the server's model catalog (CODEX-FACTS §12.11).
import * as z from 'zod';
import { PageParams } from './pagination.js';
import { lazySchema } from '../lazy-schema.js';

export const ModelListParams = lazySchema(() => PageParams.extend({
  /** Include models the catalog hides from pickers. */
  includeHidden: z.boolean().nullish(),
  modelProvider: z.string().nullish(),
}));
export type ModelListParams = z.infer<typeof ModelListParams>;

/** A reasoning effort a model supports, with a one-line description. */
export const ReasoningEffortOption = lazySchema(() => z.object({ reasoningEffort: z.string(), description: z.string() }));
export type ReasoningEffortOption = z.infer<typeof ReasoningEffortOption>;

/** One model entry, with every field Codex sends (nulls and empty lists where Skein has nothing to say). */
export const Model = lazySchema(() => z.object({
  id: z.string(),
  model: z.string(),
  upgrade: z.string().nullable(),
  upgradeInfo: z.unknown().nullable(),
  availabilityNux: z.unknown().nullable(),
  displayName: z.string(),
  description: z.string(),
  modelSpecialty: z.string().nullable(),
  hidden: z.boolean(),
  supportedReasoningEfforts: z.array(ReasoningEffortOption),
  defaultReasoningEffort: z.string(),
  inputModalities: z.array(z.enum(['text', 'image'])),
  supportsPersonality: z.boolean(),
  multiAgentVersion: z.string().nullable(),
  additionalSpeedTiers: z.array(z.string()),
  serviceTiers: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
  defaultServiceTier: z.string().nullable(),
  availableAccessPrograms: z.unknown().nullable(),
  isDefault: z.boolean(),
}));
export type Model = z.infer<typeof Model>;

export const ModelListResponse = lazySchema(() => z.object({ data: z.array(Model), nextCursor: z.string().nullable() }));
export type ModelListResponse = z.infer<typeof ModelListResponse>;
