// The side stores of the PostgreSQL thread store: what clients keep beside threads.
export { PostgresQueuedSubmissions } from './postgres-queued-submissions.js';
export { PostgresReadReceipts } from './postgres-read-receipts.js';
export { PostgresThreadAttachments } from './postgres-thread-attachments.js';
export { PostgresThreadMetadata } from './postgres-thread-metadata.js';
export { PostgresThreadSections } from './postgres-thread-sections.js';
export { removeThreadSideState } from './remove-thread-side-state.js';
