// A review's answer: the JSON the model is asked for (findings with file and line ranges, an overall
// verdict), parsed leniently, and rendered as the text clients show (Codex's layout).
import * as z from 'zod';

/** One finding: what is wrong, where, how sure the reviewer is, and how much it matters (0 = most). */
export const ReviewFinding = z.object({
  title: z.string(),
  body: z.string(),
  confidence_score: z.number(),
  priority: z.number().int().nullish(),
  code_location: z.object({
    absolute_file_path: z.string(),
    line_range: z.object({ start: z.number().int(), end: z.number().int() }),
  }),
});
export type ReviewFinding = z.infer<typeof ReviewFinding>;

/** The whole answer. */
export const ReviewOutput = z.object({
  findings: z.array(ReviewFinding),
  overall_correctness: z.string(),
  overall_explanation: z.string(),
  overall_confidence_score: z.number(),
});
export type ReviewOutput = z.infer<typeof ReviewOutput>;

/** The answer's JSON Schema, sent as the turn's `outputSchema` (strict: every field required, nothing else allowed). */
export const REVIEW_OUTPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['findings', 'overall_correctness', 'overall_explanation', 'overall_confidence_score'],
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'body', 'confidence_score', 'priority', 'code_location'],
        properties: {
          title: { type: 'string' },
          body: { type: 'string' },
          confidence_score: { type: 'number' },
          priority: { type: 'integer' },
          code_location: {
            type: 'object',
            additionalProperties: false,
            required: ['absolute_file_path', 'line_range'],
            properties: {
              absolute_file_path: { type: 'string' },
              line_range: { type: 'object', additionalProperties: false, required: ['start', 'end'], properties: { start: { type: 'integer' }, end: { type: 'integer' } } },
            },
          },
        },
      },
    },
    overall_correctness: { type: 'string', enum: ['patch is correct', 'patch is incorrect'] },
    overall_explanation: { type: 'string' },
    overall_confidence_score: { type: 'number' },
  },
} as const;

/** What clients are shown when the reviewer said nothing usable. */
export const EMPTY_REVIEW_TEXT = 'The review ended without findings or an explanation.';

/**
 * The model's answer as a review: its JSON, or the first `{` to the last `}` of it (an answer
 * wrapped in prose or a code fence); anything else is taken as the explanation, as written.
 */
export function parseReviewOutput(answer: string): ReviewOutput {
  const candidates = [answer];
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(answer.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      const parsed = ReviewOutput.safeParse(JSON.parse(candidate));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: try the next candidate, then take the text as it is.
    }
  }
  return { findings: [], overall_correctness: '', overall_explanation: answer, overall_confidence_score: 0 };
}

/**
 * The review as text, laid out as Codex lays it out: the explanation, a blank line, then a heading
 * and one bullet per finding (`- <title> — <path>:<start>-<end>`, its body indented below).
 */
export function renderReviewOutput(output: ReviewOutput): string {
  const sections: string[] = [];
  const explanation = output.overall_explanation.trim();
  if (explanation !== '') sections.push(explanation);
  if (output.findings.length > 0) {
    const lines = [output.findings.length > 1 ? 'Full review comments:' : 'Review comment:'];
    for (const finding of output.findings) {
      const { absolute_file_path: path, line_range: range } = finding.code_location;
      lines.push('', `- ${finding.title} — ${path}:${range.start}-${range.end}`);
      const body = finding.body.replace(/\r?\n$/, '');
      if (body !== '') for (const line of body.split(/\r?\n/)) lines.push(`  ${line}`);
    }
    sections.push(lines.join('\n'));
  }
  return sections.length === 0 ? EMPTY_REVIEW_TEXT : sections.join('\n\n');
}
