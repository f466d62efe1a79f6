// Reads a `bash -lc <script>` command as the plain commands it chains, so approvals can judge each
// one. Only simple scripts qualify: words joined by `&&`, `||`, `;` and `|`. Anything a shell would
// expand or redirect (variables, globs, substitutions, redirections, subshells) makes it "complex".
import { parse } from 'shell-quote';

const CHAIN_OPERATORS = new Set(['&&', '||', ';', '|']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);

/** The commands of a simple script, or null when the script is not simple. */
export function plainCommandsOfScript(script: string): string[][] | null {
  let tokens: ReturnType<typeof parse>;
  try {
    // Variables come back as a marker object, so an expansion is seen rather than silently resolved.
    tokens = parse(script, () => ({ op: 'variable' }) as unknown as string);
  } catch {
    return null;
  }
  const commands: string[][] = [[]];
  for (const token of tokens) {
    if (typeof token === 'string') {
      // Backticks survive parsing as text: a command substitution the approval cannot see through.
      if (token.includes('`')) return null;
      commands[commands.length - 1]?.push(token);
      continue;
    }
    if (!('op' in token) || !CHAIN_OPERATORS.has(token.op)) return null;
    if (commands[commands.length - 1]?.length === 0) return null;
    commands.push([]);
  }
  if (commands.some((words) => words.length === 0)) return null;
  return commands;
}

/** The script of a `<shell> -lc <script>` / `-c` argv, when it is one. */
export function shellScriptOf(argv: readonly string[]): string | null {
  const [shell, flag, script, ...rest] = argv;
  if (shell === undefined || flag === undefined || script === undefined || rest.length > 0) return null;
  const name = shell.slice(shell.lastIndexOf('/') + 1);
  if (!SHELLS.has(name) || (flag !== '-lc' && flag !== '-c')) return null;
  return script;
}

/**
 * The plain commands an argv runs: a shell wrapper's script split into its commands, else the
 * argv itself. `complex` is set when the script could not be read as plain commands.
 */
export function commandsOf(argv: readonly string[]): { readonly commands: readonly (readonly string[])[]; readonly complex: boolean } {
  const script = shellScriptOf(argv);
  if (script === null) return { commands: [argv], complex: false };
  const commands = plainCommandsOfScript(script);
  return commands === null ? { commands: [argv], complex: true } : { commands, complex: false };
}
