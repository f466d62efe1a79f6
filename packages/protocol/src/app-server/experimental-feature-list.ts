// `experimentalFeature/list`: every feature flag with its stage and effective state (CODEX-FACTS §12.11).
import * as z from 'zod';
import { PageParams } from './pagination.js';
import { lazySchema } from '../lazy-schema.js';

export const ExperimentalFeatureListParams = lazySchema(() => PageParams.extend({ threadId: z.string().nullish() }));
export type ExperimentalFeatureListParams = z.infer<typeof ExperimentalFeatureListParams>;

/** A feature's lifecycle stage on the wire. */
export const ExperimentalFeatureStage = lazySchema(() => z.enum(['beta', 'underDevelopment', 'stable', 'deprecated', 'removed']));
export type ExperimentalFeatureStage = z.infer<typeof ExperimentalFeatureStage>;

/** One feature; Codex fills `displayName`, `description` and `announcement` for `beta` features only. */
export const ExperimentalFeature = lazySchema(() => z.object({
  name: z.string(),
  stage: ExperimentalFeatureStage,
  displayName: z.string().nullable(),
  description: z.string().nullable(),
  announcement: z.string().nullable(),
  enabled: z.boolean(),
  defaultEnabled: z.boolean(),
}));
export type ExperimentalFeature = z.infer<typeof ExperimentalFeature>;

export const ExperimentalFeatureListResponse = lazySchema(() => z.object({ data: z.array(ExperimentalFeature), nextCursor: z.string().nullable() }));
export type ExperimentalFeatureListResponse = z.infer<typeof ExperimentalFeatureListResponse>;
