// The test database helpers live in @skein/test-support; this keeps the package's tests' imports short.
import { postgresSkipReason as skipReason } from '@skein/test-support';

export { createTestDatabase, type TestDatabase } from '@skein/test-support';

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export const postgresSkipReason: string | undefined = skipReason();
