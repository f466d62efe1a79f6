// Commands that only read, which the `untrusted` approval policy runs without asking (as Codex
// does): a fixed set of utilities, plus read-only forms of find, rg, git, sed and base64.

const ALWAYS_SAFE = new Set([
  'cat', 'cd', 'cut', 'echo', 'expr', 'false', 'grep', 'head', 'id', 'ls', 'nl', 'paste', 'pwd',
  'rev', 'seq', 'stat', 'tail', 'tr', 'true', 'uname', 'uniq', 'wc', 'which', 'whoami', 'numfmt', 'tac',
]);

// Options that make an otherwise read-only tool write files or run other programs.
const FIND_UNSAFE = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf']);
const RG_UNSAFE_EXACT = new Set(['--search-zip', '-z']);
const RG_UNSAFE_WITH_VALUE = ['--pre', '--hostname-bin'];
const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'branch', 'rev-parse', 'ls-files', 'blame']);
const GIT_BRANCH_WRITES = new Set(['-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '--set-upstream-to', '-u', '--unset-upstream', '--edit-description', '-f', '--force']);

/** Whether one plain command (its words) only reads. */
export function isKnownSafeCommand(words: readonly string[]): boolean {
  const [program, ...args] = words;
  if (program === undefined) return false;
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (ALWAYS_SAFE.has(name)) return true;
  switch (name) {
    case 'find':
      return !args.some((arg) => FIND_UNSAFE.has(arg));
    case 'rg':
      return !args.some((arg) => RG_UNSAFE_EXACT.has(arg) || RG_UNSAFE_WITH_VALUE.some((option) => arg === option || arg.startsWith(`${option}=`)));
    case 'git':
      return isReadOnlyGit(args);
    case 'sed':
      // Only `sed -n <range>p [file]`: printing lines.
      return args[0] === '-n' && args.length >= 2 && args.length <= 3 && /^\d+(,\d+)?p$/.test(args[1] ?? '');
    case 'base64':
      return !args.some((arg) => arg === '-o' || arg === '--output' || arg.startsWith('--output='));
    default:
      return false;
  }
}

function isReadOnlyGit(args: readonly string[]): boolean {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || !GIT_READ_ONLY.has(subcommand)) return false;
  // Options that run an external program or write the output somewhere.
  if (rest.some((arg) => arg === '--output' || arg.startsWith('--output=') || arg.startsWith('--ext-diff') || arg.startsWith('--textconv'))) return false;
  if (subcommand === 'branch') return rest.every((arg) => arg.startsWith('-') && !GIT_BRANCH_WRITES.has(arg));
  return true;
}
