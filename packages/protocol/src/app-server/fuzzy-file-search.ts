// `fuzzyFileSearch` (one query, answered at once) and its session variants, which walk the roots
// once and answer each `sessionUpdate` with `fuzzyFileSearch/sessionUpdated` + `sessionCompleted`.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** `fuzzyFileSearch`: one query over the files and directories under `roots`. */
export const FuzzyFileSearchParams = lazySchema(() => z.object({
  query: z.string(),
  roots: z.array(z.string()),
  /** A later request with the same token cancels this one, which answers with what it found so far. */
  cancellationToken: z.string().nullish(),
}));
export type FuzzyFileSearchParams = z.infer<typeof FuzzyFileSearchParams>;

/** Whether a match is a file or a directory. */
export const FuzzyFileSearchMatchType = lazySchema(() => z.enum(['file', 'directory']));
export type FuzzyFileSearchMatchType = z.infer<typeof FuzzyFileSearchMatchType>;

/** One match: `path` is relative to `root` (as the client sent it); `indices` are the matched characters of `path`. */
export const FuzzyFileSearchResult = lazySchema(() => z.object({
  root: z.string(),
  path: z.string(),
  match_type: FuzzyFileSearchMatchType,
  file_name: z.string(),
  score: z.number().int().nonnegative(),
  indices: z.array(z.number().int().nonnegative()).nullish(),
}));
export type FuzzyFileSearchResult = z.infer<typeof FuzzyFileSearchResult>;

/** The best matches, highest score first. */
export const FuzzyFileSearchResponse = lazySchema(() => z.object({ files: z.array(FuzzyFileSearchResult) }));
export type FuzzyFileSearchResponse = z.infer<typeof FuzzyFileSearchResponse>;

/** Starts (or restarts) a session over `roots`; `sessionId` is the client's and must not be empty. */
export const FuzzyFileSearchSessionStartParams = lazySchema(() => z.object({ sessionId: z.string(), roots: z.array(z.string()) }));
export type FuzzyFileSearchSessionStartParams = z.infer<typeof FuzzyFileSearchSessionStartParams>;

/** Sets the session's query; the matches come as notifications. */
export const FuzzyFileSearchSessionUpdateParams = lazySchema(() => z.object({ sessionId: z.string(), query: z.string() }));
export type FuzzyFileSearchSessionUpdateParams = z.infer<typeof FuzzyFileSearchSessionUpdateParams>;

/** Ends a session; an unknown id is not an error. */
export const FuzzyFileSearchSessionStopParams = lazySchema(() => z.object({ sessionId: z.string() }));
export type FuzzyFileSearchSessionStopParams = z.infer<typeof FuzzyFileSearchSessionStopParams>;

/** The matches of the session's current query. */
export const FuzzyFileSearchSessionUpdatedNotification = lazySchema(() => z.object({ sessionId: z.string(), query: z.string(), files: z.array(FuzzyFileSearchResult) }));
export type FuzzyFileSearchSessionUpdatedNotification = z.infer<typeof FuzzyFileSearchSessionUpdatedNotification>;

/** Sent after the `sessionUpdated` of a query once the session has nothing more to report for it. */
export const FuzzyFileSearchSessionCompletedNotification = lazySchema(() => z.object({ sessionId: z.string() }));
export type FuzzyFileSearchSessionCompletedNotification = z.infer<typeof FuzzyFileSearchSessionCompletedNotification>;
