// Which conversation (thread) a request belongs to, for the "emitted calls are answered next" rule.
import type { CapturedRequest } from '../captured-request.js';
import type { ResponsesRequestBody } from '../request-body.js';

/**
 * Requests of one conversation form a chain, so interleaved sub-agent requests do not count as the
 * parent's next request. Codex sends the thread id as the `thread-id` header and as `prompt_cache_key`.
 */
export function conversationKey(request: CapturedRequest, body: ResponsesRequestBody): string {
  return request.header('thread-id') ?? (typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : '');
}
