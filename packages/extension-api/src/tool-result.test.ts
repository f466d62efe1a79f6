// Tool errors are recognised across copies of this package: an extension may bundle its own.
import { describe, expect, it } from 'vitest';
import { FatalToolError, ToolError } from './tool-result.js';

/** What another copy of the package would construct: same brand, different class. */
function foreignToolError(message: string): Error {
  const error = new Error(message) as Error & Record<symbol, unknown>;
  error[Symbol.for('@skein/extension-api/ToolError')] = true;
  return error;
}

describe('ToolError and FatalToolError', () => {
  it('recognise an error made by another copy of the package', () => {
    expect(foreignToolError('no such todo')).toBeInstanceOf(ToolError);
    expect(foreignToolError('no such todo')).not.toBeInstanceOf(FatalToolError);
    expect(new Error('plain')).not.toBeInstanceOf(ToolError);
  });

  it('keep the ordinary check for subclasses', () => {
    class NotFound extends ToolError {}
    expect(new NotFound('x')).toBeInstanceOf(ToolError);
    expect(new NotFound('x')).toBeInstanceOf(NotFound);
    expect(new ToolError('x')).not.toBeInstanceOf(NotFound);
    expect(new FatalToolError('Lost', 'gone')).toBeInstanceOf(FatalToolError);
    expect(new FatalToolError('Lost', 'gone')).not.toBeInstanceOf(ToolError);
  });
});
