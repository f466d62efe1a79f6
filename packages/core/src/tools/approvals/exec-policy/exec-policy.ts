// The exec policy: the `prefix_rule`s of the `rules/*.rules` files beside each config layer
// (`$CODEX_HOME/rules`, trusted projects' `.codex/rules`), plus the prefixes the user
// approved for good (`acceptWithExecpolicyAmendment`), which are appended to `default.rules` in
// Codex's format so later sessions honour them too.
import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { matchesPrefix, parseRulesFile, type ExecPolicyDecision, type PrefixRule } from './rules-file.js';

/** The rules that matched a command, and what they decide together. */
export interface ExecPolicyVerdict {
  readonly decision: ExecPolicyDecision;
  /** The first matching rule that decided, for messages. */
  readonly rule: PrefixRule;
}

const STRICTNESS: Readonly<Record<ExecPolicyDecision, number>> = { allow: 0, prompt: 1, forbidden: 2 };

/** The file approved prefixes are appended to, in `rulesDir`. */
export const DEFAULT_RULES_FILE = 'default.rules';

/** Rules for commands; the strictest matching rule decides. */
export class ExecPolicy {
  readonly #rules: PrefixRule[];

  constructor(rules: readonly PrefixRule[] = []) {
    this.#rules = [...rules];
  }

  /** What the rules decide for one command's words; undefined when none matches. */
  check(words: readonly string[]): ExecPolicyVerdict | undefined {
    let verdict: ExecPolicyVerdict | undefined;
    for (const rule of this.#rules) {
      if (!matchesPrefix(rule.pattern, words)) continue;
      if (verdict === undefined || STRICTNESS[rule.decision] > STRICTNESS[verdict.decision]) verdict = { decision: rule.decision, rule };
    }
    return verdict;
  }

  /** Allows commands starting with `prefix` from now on. */
  allowPrefix(prefix: readonly string[], origin: string): void {
    this.#rules.push({ pattern: [...prefix], decision: 'allow', origin });
  }
}

/**
 * Reads every `*.rules` file of each of `rulesDirs` (directories in order, files by name); a missing
 * directory adds nothing. A file that cannot be read as rules throws, naming the file and line.
 */
export async function loadExecPolicy(rulesDirs: readonly string[]): Promise<ExecPolicy> {
  const rules: PrefixRule[] = [];
  for (const rulesDir of rulesDirs) {
    let names: string[];
    try {
      const entries = await readdir(rulesDir, { withFileTypes: true });
      names = entries.filter((entry) => entry.name.endsWith('.rules') && (entry.isFile() || entry.isSymbolicLink())).map((entry) => entry.name).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const name of names) {
      const file = path.join(rulesDir, name);
      rules.push(...parseRulesFile(await readFile(file, 'utf8'), file));
    }
  }
  return new ExecPolicy(rules);
}

/** Codex's line for an approved prefix: `prefix_rule(pattern=["git", "pull"], decision="allow")`. */
export function allowPrefixRuleLine(prefix: readonly string[]): string {
  return `prefix_rule(pattern=[${prefix.map((word) => JSON.stringify(word)).join(', ')}], decision="allow")`;
}

/**
 * Appends the rule for `prefix` to `file` (creating its directory) unless the file has it already.
 * One `appendFile` of a whole line: concurrent writers never interleave within it.
 */
export async function appendAllowPrefixRule(file: string, prefix: readonly string[]): Promise<void> {
  if (prefix.length === 0) throw new Error('an approved prefix needs at least one word');
  const line = allowPrefixRuleLine(prefix);
  await mkdir(path.dirname(file), { recursive: true });
  let existing = '';
  try {
    existing = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing.split('\n').some((candidate) => candidate.trim() === line)) return;
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendFile(file, `${separator}${line}\n`);
}
