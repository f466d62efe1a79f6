// @skein/core/testing — the shared test-thread builder for scenario tests. Re-exports only.

export { createTestWorkspace, mockProviderOverrides, startTestThread } from './test-thread.js';
export type { TestEnvironmentKind, TestThread, TestThreadOptions, TestWorkspace } from './test-thread.js';
