/** A rules file that cannot be read as rules: the place and what is wrong. */
export class RulesFileError extends Error {
  override readonly name = 'RulesFileError';
}
