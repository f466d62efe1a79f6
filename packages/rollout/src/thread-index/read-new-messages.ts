// Search's catch-up: the messages written since they were last read, read file by file from where
// the last reading stopped, in batches, each batch recorded as it is read so a stopped search keeps it.
import { mapConcurrently } from '../internal/map-concurrently.js';
import type { OpenFile } from '../open-file.js';
import type { ThreadSearchOptions } from '../thread-store.js';
import type { ContextFragmentOptions } from '../user-turn.js';
import { SUMMARY_CONCURRENCY } from './reconcile-index.js';
import type { ThreadIndex } from './thread-index.js';
import { readMessageTexts } from './thread-message-reader.js';
import type { ThreadMessagesRead } from './thread-messages.js';

/** How many threads' new messages are read, then recorded, at a time while a search catches up. */
export const MESSAGE_READ_BATCH = 256;

/** Reads into `index` the messages written since they were last read; a file that cannot be read is told to `onError` and skipped. */
export async function readNewMessages(
  index: ThreadIndex,
  readOptions: { readonly openFile?: OpenFile } & ContextFragmentOptions,
  options: ThreadSearchOptions,
  onError: (error: unknown) => void,
): Promise<void> {
  const unread = index.messages.unread();
  for (let start = 0; start < unread.length && options.signal?.aborted !== true; start += MESSAGE_READ_BATCH) {
    const batch = unread.slice(start, start + MESSAGE_READ_BATCH);
    const reads = await mapConcurrently(batch, SUMMARY_CONCURRENCY, async (file): Promise<ThreadMessagesRead | undefined> => {
      try {
        const { texts, end } = await readMessageTexts(file.path, file.from, readOptions);
        return { ...file, texts, end };
      } catch (error) {
        // A file moved or deleted since it was indexed is read where the index next finds it.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        onError(error);
        return undefined;
      }
    });
    index.messages.record(reads.filter((read) => read !== undefined));
    options.onRead?.({ threadIds: batch.map((file) => file.threadId), done: start + batch.length, total: unread.length });
  }
  index.messages.forgetRemoved();
}
