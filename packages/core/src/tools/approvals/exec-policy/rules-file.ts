// Reads Codex's `.rules` files: a Starlark subset such as
//   SHELLS = ["bash", "sh"]
//   prefix_rule(pattern=[SHELLS, ["-c", "-lc"]], decision="prompt", match=["bash -lc ls"])
// Understood: assignments, names, strings (quoted, triple-quoted, raw; Starlark escapes), lists, `+`
// on strings and lists, and calls with keyword arguments. `prefix_rule` becomes a rule;
// `network_rule` and `host_executable` are read and set aside.
import * as z from 'zod';
import { RulesFileError } from './rules-file-error.js';
import { splitExample } from './split-example.js';
import { tokenizeRules, type RulesToken } from './rules-tokens.js';
import { lazySchema } from '@skein/protocol';

/** What a rule decides for the commands it matches; the strictest match wins. */
export const ExecPolicyDecision = lazySchema(() => z.enum(['allow', 'prompt', 'forbidden']));
export type ExecPolicyDecision = z.infer<typeof ExecPolicyDecision>;

/** One position of a pattern: a word, or any of several words. */
export type PatternToken = string | readonly string[];

/** A `prefix_rule`: commands starting with `pattern` get `decision`. */
export interface PrefixRule {
  readonly pattern: readonly PatternToken[];
  readonly decision: ExecPolicyDecision;
  readonly justification?: string | undefined;
  /** Where it was written, for messages (`file:line`). */
  readonly origin: string;
}

export { RulesFileError } from './rules-file-error.js';

type Value = string | readonly Value[];

const NonEmptyString = lazySchema(() => z.string().min(1));
const Example = lazySchema(() => z.union([NonEmptyString, z.array(NonEmptyString).min(1)]));
const PrefixRuleArgs = lazySchema(() => z
  .object({
    pattern: z.array(z.union([NonEmptyString, z.array(NonEmptyString).min(1)])).min(1, 'pattern must name at least one word'),
    decision: ExecPolicyDecision.default('allow'),
    justification: z.string().trim().min(1, 'justification must not be empty').optional(),
    match: z.array(Example).default([]),
    not_match: z.array(Example).default([]),
  })
  .strict());
const IGNORED_CALLS = new Set(['network_rule', 'host_executable']);

/** Parses the text of one rules file; `origin` names it in errors. Throws {@link RulesFileError}. */
export function parseRulesFile(text: string, origin: string): PrefixRule[] {
  return new RulesParser(tokenizeRules(text, origin), origin).parse();
}

class RulesParser {
  #at = 0;
  readonly #names = new Map<string, Value>();

  constructor(
    private readonly tokens: readonly RulesToken[],
    private readonly origin: string,
  ) {}

  parse(): PrefixRule[] {
    const rules: PrefixRule[] = [];
    while (this.#at < this.tokens.length) {
      const name = this.#take('name', 'an assignment or a call such as prefix_rule(...)');
      if (this.#peekPunct('=')) {
        this.#at += 1;
        this.#names.set(name.text, this.#value());
        continue;
      }
      this.#expectPunct('(');
      const args = this.#keywordArguments();
      if (IGNORED_CALLS.has(name.text)) continue;
      if (name.text !== 'prefix_rule') this.#fail(`unknown function \`${name.text}\`; rules files call prefix_rule, network_rule and host_executable`, name.line);
      rules.push(prefixRule(args, `${this.origin}:${name.line}`));
    }
    return rules;
  }

  #keywordArguments(): Record<string, Value> {
    const args: Record<string, Value> = {};
    while (!this.#peekPunct(')')) {
      const key = this.#take('name', 'a keyword argument');
      this.#expectPunct('=');
      if (key.text in args) this.#fail(`argument \`${key.text}\` is given twice`, key.line);
      args[key.text] = this.#value();
      this.#separator(')');
    }
    this.#at += 1;
    return args;
  }

  /** `term ('+' term)*`: strings join, lists concatenate. */
  #value(): Value {
    let value = this.#term();
    while (this.#peekPunct('+')) {
      const plus = this.tokens[this.#at]!;
      this.#at += 1;
      const right = this.#term();
      if (typeof value === 'string' && typeof right === 'string') value = value + right;
      else if (typeof value !== 'string' && typeof right !== 'string') value = [...value, ...right];
      else this.#fail('`+` joins two strings or two lists, not a string and a list', plus.line);
    }
    return value;
  }

  #term(): Value {
    const token = this.tokens[this.#at];
    if (token?.kind === 'string') {
      this.#at += 1;
      return token.text;
    }
    if (token?.kind === 'name') {
      this.#at += 1;
      const value = this.#names.get(token.text);
      if (value === undefined) this.#fail(`\`${token.text}\` is not defined`, token.line);
      return value;
    }
    if (token?.kind !== 'punct' || token.text !== '[') return this.#fail(`expected a string, a list or a name, found ${describe(token)}`);
    this.#at += 1;
    const items: Value[] = [];
    while (!this.#peekPunct(']')) {
      items.push(this.#value());
      this.#separator(']');
    }
    this.#at += 1;
    return items;
  }

  #separator(close: string): void {
    if (this.#peekPunct(',')) this.#at += 1;
    else if (!this.#peekPunct(close)) this.#fail(`expected \`,\` or \`${close}\`, found ${describe(this.tokens[this.#at])}`);
  }

  #take(kind: RulesToken['kind'], what: string): RulesToken {
    const token = this.tokens[this.#at];
    if (token?.kind !== kind) this.#fail(`expected ${what}, found ${describe(token)}`);
    this.#at += 1;
    return token;
  }

  #peekPunct(text: string): boolean {
    const token = this.tokens[this.#at];
    return token?.kind === 'punct' && token.text === text;
  }

  #expectPunct(text: string): void {
    if (!this.#peekPunct(text)) this.#fail(`expected \`${text}\`, found ${describe(this.tokens[this.#at])}`);
    this.#at += 1;
  }

  #fail(message: string, line = this.tokens[this.#at]?.line ?? this.tokens.at(-1)?.line ?? 1): never {
    throw new RulesFileError(`${this.origin}:${line}: ${message}`);
  }
}

function prefixRule(args: Record<string, Value>, origin: string): PrefixRule {
  const parsed = PrefixRuleArgs.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RulesFileError(`${origin}: prefix_rule ${issue.path.length > 0 ? `\`${issue.path.join('.')}\`` : 'arguments'}: ${issue.message}`);
  }
  const { pattern, decision, justification, match, not_match: notMatch } = parsed.data;
  const rule: PrefixRule = { pattern, decision, justification, origin };
  // The examples document the rule; one that does not behave as written is a mistake in the file.
  for (const example of match) {
    if (!matchesPrefix(rule.pattern, exampleWords(example))) throw new RulesFileError(`${origin}: the match example ${JSON.stringify(example)} does not match the pattern`);
  }
  for (const example of notMatch) {
    if (matchesPrefix(rule.pattern, exampleWords(example))) throw new RulesFileError(`${origin}: the not_match example ${JSON.stringify(example)} matches the pattern`);
  }
  return rule;
}

/** Whether `words` start with `pattern`. */
export function matchesPrefix(pattern: readonly PatternToken[], words: readonly string[]): boolean {
  return pattern.length <= words.length && pattern.every((token, index) => (typeof token === 'string' ? token === words[index] : token.includes(words[index]!)));
}

function exampleWords(example: string | readonly string[]): string[] {
  return typeof example === 'string' ? splitExample(example) : [...example];
}

function describe(token: RulesToken | undefined): string {
  if (token === undefined) return 'the end of the file';
  return token.kind === 'string' ? `the string ${JSON.stringify(token.text)}` : `\`${token.text}\``;
}
