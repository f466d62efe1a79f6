import { describe, expect, it } from 'vitest';
import { EMPTY_REVIEW_TEXT, parseReviewOutput, renderReviewOutput } from './review-output.js';

const finding = (title: string, body: string) => ({ title, body, confidence_score: 0.5, priority: 2, code_location: { absolute_file_path: '/r/a.ts', line_range: { start: 3, end: 4 } } });
const answer = (findings: unknown[], explanation: string) => JSON.stringify({ findings, overall_correctness: 'patch is incorrect', overall_explanation: explanation, overall_confidence_score: 0.6 });

describe('renderReviewOutput', () => {
  it("lays one finding out under Codex's singular heading", () => {
    expect(renderReviewOutput(parseReviewOutput(answer([finding('[P2] Leak', 'Never closed.\n')], ' One issue. ')))).toBe('One issue.\n\nReview comment:\n\n- [P2] Leak — /r/a.ts:3-4\n  Never closed.');
  });

  it('lays several out under the plural heading, bodies indented line by line', () => {
    expect(renderReviewOutput(parseReviewOutput(answer([finding('A', 'x\ny'), finding('B', '')], '')))).toBe('Full review comments:\n\n- A — /r/a.ts:3-4\n  x\n  y\n\n- B — /r/a.ts:3-4');
  });

  it('says so when the reviewer gave neither findings nor an explanation', () => {
    expect(renderReviewOutput(parseReviewOutput(answer([], '  ')))).toBe(EMPTY_REVIEW_TEXT);
  });
});

describe('parseReviewOutput', () => {
  it('finds the JSON inside prose or a code fence', () => {
    expect(parseReviewOutput('Here:\n```json\n' + answer([], 'Fine.') + '\n```').overall_explanation).toBe('Fine.');
  });

  it('takes anything else as the explanation, as written', () => {
    expect(parseReviewOutput('{not json} but words')).toMatchObject({ findings: [], overall_explanation: '{not json} but words' });
  });
});
