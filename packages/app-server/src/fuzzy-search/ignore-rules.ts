// Which paths a fuzzy-search walk skips, as ripgrep-style walkers decide: `.ignore` files always,
// `.gitignore` and `.git/info/exclude` only inside a git work tree; a deeper file overrides a
// shallower one, and in one directory `.ignore` overrides `.gitignore`.
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The rules one directory contributes, strongest first. */
interface RuleLevel {
  /** The directory the patterns are relative to. */
  readonly base: string;
  readonly rules: readonly Ignore[];
}

/** Ignore files larger than this are not read (a generated file is not a hand-kept ignore list). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

async function readRules(file: string): Promise<Ignore | undefined> {
  try {
    if ((await stat(file)).size > MAX_IGNORE_FILE_BYTES) return undefined;
    const text = await readFile(file, 'utf8');
    if (text.trim() === '') return undefined;
    return ignore({ allowRelativePaths: true }).add(text);
  } catch {
    // Absent or unreadable: the directory adds no rules, as walkers that skip such files do.
    return undefined;
  }
}

/** The rules in force at one directory of a walk: its own files' and every ancestor's. */
export class IgnoreRules {
  private constructor(
    /** Deepest first. */
    private readonly levels: readonly RuleLevel[],
    /** Whether the directory is inside a git work tree (so `.gitignore` files count). */
    readonly inGitWorkTree: boolean,
  ) {}

  /** The rules above `root` (its ancestors' ignore files and the enclosing repository's, if any), and `root`'s own. */
  static async forRoot(root: string): Promise<IgnoreRules> {
    const chain: string[] = [];
    for (let dir = root; ; dir = path.dirname(dir)) {
      chain.push(dir);
      if (path.dirname(dir) === dir) break;
    }
    // The nearest directory holding a `.git` entry (a directory, even an empty one, or a worktree's
    // file) is the work tree's top, as Codex 0.171.0 decides.
    let repoTop: string | undefined;
    for (const dir of chain) {
      if (await exists(path.join(dir, '.git'))) {
        repoTop = dir;
        break;
      }
    }
    let rules = new IgnoreRules([], false);
    if (repoTop !== undefined) {
      const exclude = await readRules(path.join(repoTop, '.git', 'info', 'exclude'));
      if (exclude !== undefined) rules = new IgnoreRules([{ base: repoTop, rules: [exclude] }], false);
    }
    const insideRepo = (dir: string) => repoTop !== undefined && (dir === repoTop || dir.startsWith(repoTop.endsWith(path.sep) ? repoTop : repoTop + path.sep));
    for (const dir of chain.reverse()) rules = await rules.enter(dir, { hasGit: insideRepo(dir), hasIgnoreFiles: true });
    return rules;
  }

  /**
   * The rules for `dir`, a child of this level: adds its own `.ignore` (and `.gitignore` inside a
   * work tree, which `hasGit` — a `.git` entry in it — starts). `hasIgnoreFiles` false skips reading.
   */
  async enter(dir: string, seen: { readonly hasGit: boolean; readonly hasIgnoreFiles: boolean }): Promise<IgnoreRules> {
    const inGit = this.inGitWorkTree || seen.hasGit;
    if (!seen.hasIgnoreFiles) return inGit === this.inGitWorkTree ? this : new IgnoreRules(this.levels, inGit);
    const own: Ignore[] = [];
    const dotIgnore = await readRules(path.join(dir, '.ignore'));
    if (dotIgnore !== undefined) own.push(dotIgnore);
    if (inGit) {
      const gitignore = await readRules(path.join(dir, '.gitignore'));
      if (gitignore !== undefined) own.push(gitignore);
    }
    if (own.length === 0) return inGit === this.inGitWorkTree ? this : new IgnoreRules(this.levels, inGit);
    return new IgnoreRules([{ base: dir, rules: own }, ...this.levels], inGit);
  }

  /** Whether the entry at absolute `entryPath` is skipped. */
  ignores(entryPath: string, directory: boolean): boolean {
    for (const level of this.levels) {
      const relative = path.relative(level.base, entryPath).split(path.sep).join('/');
      if (relative === '' || relative.startsWith('..')) continue;
      const subject = directory ? `${relative}/` : relative;
      for (const rules of level.rules) {
        const verdict = rules.test(subject);
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
    }
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
