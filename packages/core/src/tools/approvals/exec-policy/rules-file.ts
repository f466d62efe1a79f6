// Reads Codex's `.rules` files: Starlark calls such as
//   prefix_rule(pattern=["git", ["status", "log"]], decision="allow", match=["git status"])
// Only what rules files use is understood: calls with keyword arguments whose values are strings and
// lists. `prefix_rule` becomes a rule; `network_rule` and `host_executable` are read and set aside.
import { parse as parseShellWords } from 'shell-quote';
import { z } from 'zod';

/** What a rule decides for the commands it matches; the strictest match wins. */
export const ExecPolicyDecision = z.enum(['allow', 'prompt', 'forbidden']);
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

/** A rules file that cannot be read as rules: the place and what is wrong. */
export class RulesFileError extends Error {
  override readonly name = 'RulesFileError';
}

type Value = string | Value[];
type Token = { readonly kind: 'string' | 'name' | 'punct'; readonly text: string; readonly line: number };

const NonEmptyString = z.string().min(1);
const Example = z.union([NonEmptyString, z.array(NonEmptyString).min(1)]);
const PrefixRuleArgs = z
  .object({
    pattern: z.array(z.union([NonEmptyString, z.array(NonEmptyString).min(1)])).min(1, 'pattern must name at least one word'),
    decision: ExecPolicyDecision.default('allow'),
    justification: z.string().trim().min(1, 'justification must not be empty').optional(),
    match: z.array(Example).default([]),
    not_match: z.array(Example).default([]),
  })
  .strict();
const IGNORED_CALLS = new Set(['network_rule', 'host_executable']);

/** Parses the text of one rules file; `origin` names it in errors. Throws {@link RulesFileError}. */
export function parseRulesFile(text: string, origin: string): PrefixRule[] {
  const tokens = tokenize(text, origin);
  const rules: PrefixRule[] = [];
  let at = 0;
  const fail = (message: string, line = tokens[at]?.line ?? lineCount(text)): never => {
    throw new RulesFileError(`${origin}:${line}: ${message}`);
  };
  const expect = (text: string): void => {
    if (tokens[at]?.text !== text || tokens[at]?.kind !== 'punct') fail(`expected \`${text}\`, found ${describe(tokens[at])}`);
    at += 1;
  };
  const value = (): Value => {
    const token = tokens[at];
    if (token?.kind === 'string') {
      at += 1;
      return token.text;
    }
    if (token?.kind !== 'punct' || token.text !== '[') return fail(`expected a string or a list, found ${describe(token)}`);
    at += 1;
    const items: Value[] = [];
    while (tokens[at]?.text !== ']') {
      items.push(value());
      if (tokens[at]?.text === ',') at += 1;
      else if (tokens[at]?.text !== ']') fail(`expected \`,\` or \`]\`, found ${describe(tokens[at])}`);
    }
    at += 1;
    return items;
  };

  while (at < tokens.length) {
    const callee = tokens[at]!;
    if (callee.kind !== 'name') fail(`expected a call such as prefix_rule(...), found ${describe(callee)}`);
    at += 1;
    expect('(');
    const args: Record<string, Value> = {};
    while (tokens[at]?.text !== ')') {
      const key = tokens[at];
      if (key?.kind !== 'name') fail(`expected a keyword argument, found ${describe(key)}`);
      at += 1;
      expect('=');
      if (key!.text in args) fail(`argument \`${key!.text}\` is given twice`, key!.line);
      args[key!.text] = value();
      if (tokens[at]?.text === ',') at += 1;
      else if (tokens[at]?.text !== ')') fail(`expected \`,\` or \`)\`, found ${describe(tokens[at])}`);
    }
    at += 1;
    if (IGNORED_CALLS.has(callee.text)) continue;
    if (callee.text !== 'prefix_rule') fail(`unknown function \`${callee.text}\`; rules files call prefix_rule, network_rule and host_executable`, callee.line);
    rules.push(...prefixRule(args, `${origin}:${callee.line}`));
  }
  return rules;
}

function prefixRule(args: Record<string, Value>, origin: string): PrefixRule[] {
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
  return [rule];
}

/** Whether `words` start with `pattern`. */
export function matchesPrefix(pattern: readonly PatternToken[], words: readonly string[]): boolean {
  return pattern.length <= words.length && pattern.every((token, index) => (typeof token === 'string' ? token === words[index] : token.includes(words[index]!)));
}

function exampleWords(example: string | readonly string[]): string[] {
  if (typeof example !== 'string') return [...example];
  return parseShellWords(example).filter((token): token is string => typeof token === 'string');
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };

function tokenize(text: string, origin: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '\n') {
      line += 1;
      at += 1;
    } else if (/\s/.test(char)) {
      at += 1;
    } else if (char === '#') {
      while (at < text.length && text[at] !== '\n') at += 1;
    } else if ('()[],='.includes(char)) {
      tokens.push({ kind: 'punct', text: char, line });
      at += 1;
    } else if (char === '"' || char === "'") {
      let value = '';
      at += 1;
      while (text[at] !== char) {
        if (at >= text.length || text[at] === '\n') throw new RulesFileError(`${origin}:${line}: unterminated string`);
        if (text[at] === '\\') {
          const escaped = ESCAPES[text[at + 1] ?? ''];
          if (escaped === undefined) throw new RulesFileError(`${origin}:${line}: unknown escape \\${text[at + 1] ?? ''}`);
          value += escaped;
          at += 2;
        } else {
          value += text[at];
          at += 1;
        }
      }
      at += 1;
      tokens.push({ kind: 'string', text: value, line });
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))?.[0];
      if (name === undefined) throw new RulesFileError(`${origin}:${line}: unexpected character ${JSON.stringify(char)}`);
      tokens.push({ kind: 'name', text: name, line });
      at += name.length;
    }
  }
  return tokens;
}

function describe(token: Token | undefined): string {
  if (token === undefined) return 'the end of the file';
  return token.kind === 'string' ? `the string ${JSON.stringify(token.text)}` : `\`${token.text}\``;
}

function lineCount(text: string): number {
  return text.split('\n').length;
}
