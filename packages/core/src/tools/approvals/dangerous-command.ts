// Commands that destroy work even inside the sandbox's writable roots, so every policy that can ask
// asks first (and `never` refuses them): a forced `rm`, directly or through `sudo`, anywhere in a
// script — as Codex 0.171.0 judges them.
import { parse } from 'shell-quote';

/** Whether one plain command (its words) might destroy work. */
export function isDangerousCommand(words: readonly string[]): boolean {
  const [program, ...args] = words;
  if (program === undefined) return false;
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (name === 'sudo') return isDangerousCommand(args);
  if (name !== 'rm') return false;
  // Options end at `--`; a file named `-f` after it is not a flag.
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return options.some((arg) => /^-[a-zA-Z]*f/.test(arg) || arg === '--force');
}

/**
 * Whether any literal command in a shell script might destroy work: the script is cut at every
 * operator (chains, pipes, redirections, subshells, substitutions), and each run of plain words is
 * judged, so `x; rm -rf "$d" >/dev/null` is caught although the script is not a simple chain.
 */
export function scriptHasDangerousCommand(script: string): boolean {
  let tokens: ReturnType<typeof parse>;
  try {
    tokens = parse(script, (key) => `$${key}`);
  } catch {
    return false;
  }
  let words: string[] = [];
  for (const token of [...tokens, { op: ';' }]) {
    if (typeof token === 'string') {
      words.push(token);
      continue;
    }
    if (isDangerousCommand(words)) return true;
    words = [];
  }
  return false;
}
