// zod pieces shared by the structured feature tables. Two tiers, as Codex checks them: the TOML type of
// a value is checked in every layer; its range only once the feature ends up enabled.

import * as z from 'zod';

/** A TOML boolean. */
export const TomlBoolean = z.boolean({ error: 'expected true or false' });
/** A TOML integer (TOML keeps integers and floats apart, so `1.5` is a type error). */
export const TomlInteger = z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' });
/** A TOML number, integer or float; `inf` and `nan` are not numbers a budget can use. */
export const TomlNumber = z.number({ error: 'expected a finite number' });
/** A TOML string. */
export const TomlString = z.string({ error: 'expected a string' });

/** Why a value is missing or of the wrong type; `requirement` is said when it is missing. */
function typeError(expected: string, requirement: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? requirement : expected);
}

/** A positive integer; `requirement` is the message when it is absent. */
export function positiveInteger(requirement = 'is required'): z.ZodNumber {
  return z
    .number({ error: typeError('expected an integer', requirement) })
    .int({ error: 'expected an integer' })
    .positive({ error: 'must be a positive integer' });
}

/** A finite number of zero or more. */
export const NonNegativeNumber = z
  .number({ error: 'expected a finite number' })
  .nonnegative({ error: 'must be a finite number of zero or more' });

/** Length of a string in UTF-8 bytes, the unit Codex bounds its templates in. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
