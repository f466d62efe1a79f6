// The fuzzy-file-search schemas against Codex 0.171.0's JSON Schema: what they accept validates
// there, and what Codex's schema rejects they reject too.
import { appServerSchema } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import {
  FuzzyFileSearchParams,
  FuzzyFileSearchResponse,
  FuzzyFileSearchSessionCompletedNotification,
  FuzzyFileSearchSessionStartParams,
  FuzzyFileSearchSessionUpdatedNotification,
} from './fuzzy-file-search.js';

const match = { root: '/w', path: 'src/main.rs', match_type: 'file', file_name: 'main.rs', score: 65645, indices: [4, 5, 6, 7] };

function expectValid(definition: string, value: unknown): void {
  expect(appServerSchema().errors(definition, value)).toEqual([]);
}

describe('fuzzy file search schemas', () => {
  it('parse what Codex accepts and produce what its schema validates', () => {
    const params = FuzzyFileSearchParams.parse({ query: 'main', roots: ['/w'], cancellationToken: null });
    expectValid('FuzzyFileSearchParams', params);
    expectValid('FuzzyFileSearchResponse', FuzzyFileSearchResponse.parse({ files: [match, { ...match, match_type: 'directory', indices: null }] }));
    expectValid('FuzzyFileSearchSessionStartParams', FuzzyFileSearchSessionStartParams.parse({ sessionId: 's', roots: [] }));
    expectValid('FuzzyFileSearchSessionUpdatedNotification', FuzzyFileSearchSessionUpdatedNotification.parse({ sessionId: 's', query: 'main', files: [match] }));
    expectValid('FuzzyFileSearchSessionCompletedNotification', FuzzyFileSearchSessionCompletedNotification.parse({ sessionId: 's' }));
  });

  it('reject what Codex rejects: a missing field, a negative score, an unknown match type', () => {
    for (const [schema, definition, value] of [
      [FuzzyFileSearchParams, 'FuzzyFileSearchParams', { query: 'x' }],
      [FuzzyFileSearchResponse, 'FuzzyFileSearchResponse', { files: [{ ...match, score: -1 }] }],
      [FuzzyFileSearchResponse, 'FuzzyFileSearchResponse', { files: [{ ...match, match_type: 'symlink' }] }],
      [FuzzyFileSearchSessionStartParams, 'FuzzyFileSearchSessionStartParams', { sessionId: 's' }],
    ] as const) {
      expect(schema.safeParse(value).success, definition).toBe(false);
      expect(appServerSchema().errors(definition, value), definition).not.toEqual([]);
    }
  });
});
