// The shell side of checkpoints: POSIX sh scripts run on an environment's own machine (this one or
// a remote executor) through its process runner, so a checkpoint never copies files across the wire.
// They use git plumbing only, with a private index file: the user's index, HEAD, branches and stash
// are never written. Inputs come as SKEIN_CP_* variables and positional arguments; lists come back
// NUL-separated after a marker line, so any file name survives.

/** Variables every script sets for git: no pager, no prompts, a fixed identity for commit-tree. */
export const GIT_ENVIRONMENT: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  GIT_AUTHOR_NAME: 'Skein checkpoint',
  GIT_AUTHOR_EMAIL: 'checkpoint@skein.invalid',
  GIT_COMMITTER_NAME: 'Skein checkpoint',
  GIT_COMMITTER_EMAIL: 'checkpoint@skein.invalid',
  // No hook or file-system monitor runs for a checkpoint, and it stores the bytes on disk as they are.
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'core.hooksPath',
  GIT_CONFIG_VALUE_0: '/dev/null',
  GIT_CONFIG_KEY_1: 'core.autocrlf',
  GIT_CONFIG_VALUE_1: 'false',
  GIT_CONFIG_KEY_2: 'core.fsmonitor',
  GIT_CONFIG_VALUE_2: 'false',
};

/** Exit status of a script run where there is nothing to checkpoint (no git, not a work tree). */
export const NOT_A_WORKSPACE_EXIT = 3;
/** Exit status when a folder outside git holds more files than `SKEIN_CP_MAX_WORKSPACE_FILES`. */
export const TOO_MANY_FILES_EXIT = 4;
/** Exit status of a restore that wrote everything but could not delete some files (listed on stdout). */
export const RESTORE_PARTIAL_EXIT = 5;

// Where the work tree and the repository are. In a git work tree, its own repository; with
// SKEIN_CP_SHADOW_DIR (a folder outside git, `mode = "on"`), a private bare repository there whose
// work tree is the cwd, created on first use and bounded by SKEIN_CP_MAX_WORKSPACE_FILES.
const LOCATE = String.raw`
command -v git >/dev/null 2>&1 || { echo "git is not installed" >&2; exit ${NOT_A_WORKSPACE_EXIT}; }
# A private repository under the executor user's home is named from it (~/...).
case "$SKEIN_CP_SHADOW_DIR" in "~/"*) SKEIN_CP_SHADOW_DIR="$HOME/$(printf '%s' "$SKEIN_CP_SHADOW_DIR" | cut -c3-)" ;; esac
if [ -n "$SKEIN_CP_SHADOW_DIR" ]; then
  # A folder a repository ignores is not that repository's: it may have a private one.
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ! git check-ignore -q . 2>/dev/null; then echo "inside a git work tree" >&2; exit ${NOT_A_WORKSPACE_EXIT}; fi
  [ -d "$SKEIN_CP_SHADOW_DIR/objects" ] || git init -q --bare "$SKEIN_CP_SHADOW_DIR" >/dev/null || exit 1
  GIT_DIR=$SKEIN_CP_SHADOW_DIR; GIT_WORK_TREE=$(pwd -P); export GIT_DIR GIT_WORK_TREE
  root=$GIT_WORK_TREE; gitdir=$GIT_DIR
else
  root=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "not a git work tree" >&2; exit ${NOT_A_WORKSPACE_EXIT}; }
  if git check-ignore -q . 2>/dev/null; then echo "the git repository at $root ignores this folder" >&2; exit ${NOT_A_WORKSPACE_EXIT}; fi
  gitdir=$(git rev-parse --absolute-git-dir) || exit 1
fi
cd "$root" || exit 1
mkdir -p "$gitdir/skein" || exit 1
tmp=$(mktemp -d "$gitdir/skein/tmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
`;

/**
 * Takes a snapshot of the work tree into the ref SKEIN_CP_REF and prints `root`, the commit, then
 * the NUL-separated untracked entries it left out, then the ignored ones. Tracked files are always kept; an untracked or ignored
 * file over SKEIN_CP_MAX_BYTES, and a folder of them holding more than SKEIN_CP_MAX_DIR_FILES files,
 * are left out. Refs under SKEIN_CP_PRUNE_PREFIX committed before SKEIN_CP_PRUNE_BEFORE (Unix
 * seconds) are deleted on the way.
 */
export const SNAPSHOT_SCRIPT = String.raw`set -u
# Outside git, a folder too large to copy cheaply is not checkpointed (checked before anything is created).
if [ -n "$SKEIN_CP_SHADOW_DIR" ]; then
  files=$(find . -type f 2>/dev/null | head -n "$((SKEIN_CP_MAX_WORKSPACE_FILES + 1))" | wc -l)
  if [ "$files" -gt "$SKEIN_CP_MAX_WORKSPACE_FILES" ]; then echo "more than $SKEIN_CP_MAX_WORKSPACE_FILES files" >&2; exit ${TOO_MANY_FILES_EXIT}; fi
fi
${LOCATE}
export GIT_INDEX_FILE="$tmp/index"
# The user's index only lends its file stats (unchanged files are not hashed again); it is copied, never written.
# Its time is kept (-p): git re-reads a file changed in the same second the index was written only
# when it can tell (racy git), and a copy stamped now would hide a same-size edit from the snapshot.
if [ -f "$gitdir/index" ]; then cp -p "$gitdir/index" "$GIT_INDEX_FILE" || exit 1; fi
max=$SKEIN_CP_MAX_BYTES; maxdir=$SKEIN_CP_MAX_DIR_FILES
# Untracked (and, with -i, ignored) entries, folders collapsed, sorted into "$tmp/kept.$1" and "$tmp/skipped.$1".
survey() {
  : >"$tmp/kept.$1"; : >"$tmp/skipped.$1"
  kind=$1; shift
  export tmp max maxdir kind
  git ls-files -z -o --exclude-standard --directory "$@" | xargs -0 -r sh -c '
    for entry; do
      case "$entry" in
        # find would read a name starting with a dash as an option: such an entry is left out.
        -*) printf "%s\000" "$entry" >>"$tmp/skipped.$kind" ;;
        # A repository inside with nothing committed cannot be added (git refuses it): left out.
        */) if [ -e "$entry.git" ] && ! git -C "$entry" rev-parse -q --verify HEAD >/dev/null 2>&1; then printf "%s\000" "$entry" >>"$tmp/skipped.$kind"; continue; fi
            if [ "$(find "$entry" -type f 2>/dev/null | head -n "$((maxdir + 1))" | wc -l)" -gt "$maxdir" ]; then printf "%s\000" "$entry" >>"$tmp/skipped.$kind"; continue; fi
            find "$entry" -type f -size +"$max"c -print0 >>"$tmp/skipped.$kind"
            printf "%s\000" "$entry" >>"$tmp/kept.$kind" ;;
        *) if [ -n "$(find "$entry" -prune -type f -size +"$max"c)" ]; then printf "%s\000" "$entry" >>"$tmp/skipped.$kind"; else printf "%s\000" "$entry" >>"$tmp/kept.$kind"; fi ;;
      esac
    done' sh
}
survey untracked || exit 1
survey ignored -i || exit 1
# Every path, less the untracked entries left out.
{ printf ':/\000'; xargs -0 -r printf ':(top,exclude,literal)%s\000' <"$tmp/skipped.untracked"; } >"$tmp/all"
git add -A --pathspec-from-file="$tmp/all" --pathspec-file-nul >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
# Ignored entries that are small enough, forced in.
if [ -s "$tmp/kept.ignored" ]; then
  { xargs -0 -r printf ':(top,literal)%s\000' <"$tmp/kept.ignored"; xargs -0 -r printf ':(top,exclude,literal)%s\000' <"$tmp/skipped.ignored"; } >"$tmp/ignored"
  git add -f --pathspec-from-file="$tmp/ignored" --pathspec-file-nul >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
fi
tree=$(git write-tree) || exit 1
parent=$(git rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null || true)
commit=$(git commit-tree "$tree" $([ -n "$parent" ] && printf -- '-p %s' "$parent") -m "$SKEIN_CP_MESSAGE") || exit 1
git update-ref "$SKEIN_CP_REF" "$commit" || exit 1
# The shadow repository's own index keeps the stats for the next snapshot.
if [ -n "$SKEIN_CP_SHADOW_DIR" ]; then mv "$GIT_INDEX_FILE" "$gitdir/index"; fi
if [ -n "$SKEIN_CP_PRUNE_PREFIX" ]; then
  git for-each-ref --format='%(committerdate:unix) %(refname)' "$SKEIN_CP_PRUNE_PREFIX" | while read -r when ref; do
    if [ "$when" -lt "$SKEIN_CP_PRUNE_BEFORE" ]; then printf 'delete %s\n' "$ref"; fi
  done | git update-ref --stdin || true
fi
printf '%s\n%s\n--skipped--\n' "$root" "$commit"
cat "$tmp/skipped.untracked"
printf '\n--ignored--\n'
cat "$tmp/skipped.ignored"
`;

/**
 * Prints what differs between two commits as NUL-separated `status, path` pairs (`A`, `M`, `D`;
 * renames as a delete and an add). Arguments: the two commits, then pathspecs (none: the whole tree).
 */
export const DIFF_SCRIPT = String.raw`set -u
${LOCATE}
from=$1; to=$2; shift 2
git diff --no-renames --no-ext-diff --no-textconv --name-status -z "$from" "$to" -- "$@"
`;

/** Prints the unified diff between two commits for the given paths (for the client's item). */
export const PATCH_SCRIPT = String.raw`set -u
${LOCATE}
from=$1; to=$2; shift 2
git diff --no-renames --no-ext-diff --no-textconv --no-color --binary --src-prefix=a/ --dst-prefix=b/ "$from" "$to" -- "$@"
`;

/**
 * Writes files back. Arguments: the source commit, then `w` or `d` and a path for each file: `w`
 * writes the commit's version (bytes and mode) through a private index, `d` deletes the file and
 * any folders it leaves empty. Prints the paths it could not delete, and then exits with
 * RESTORE_PARTIAL_EXIT; a write that fails is exit 1.
 */
export const RESTORE_SCRIPT = String.raw`set -u
${LOCATE}
export GIT_INDEX_FILE="$tmp/index"
source=$1; shift
: >"$tmp/write"
failed=0
while [ $# -ge 2 ]; do
  action=$1; path=$2; shift 2
  case "$action" in
    w) printf ':(top,literal)%s\000' "$path" >>"$tmp/write" ;;
    d) if [ -e "$path" ] || [ -L "$path" ]; then rm -f -- "$path" || { printf '%s\000' "$path"; failed=${RESTORE_PARTIAL_EXIT}; continue; }; fi
       dir=$(dirname -- "$path")
       while [ "$dir" != "." ] && [ "$dir" != "/" ] && rmdir -- "$dir" 2>/dev/null; do dir=$(dirname -- "$dir"); done ;;
  esac
done
if [ -s "$tmp/write" ]; then
  git checkout "$source" --pathspec-from-file="$tmp/write" --pathspec-file-nul >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
fi
exit $failed
`;

/** Deletes every ref under the prefix given as the one argument (a thread's checkpoints). */
export const PRUNE_SCRIPT = String.raw`set -u
${LOCATE}
git for-each-ref --format='delete %(refname)' "$1" | git update-ref --stdin
`;

/**
 * Adds a worktree at the first argument, detached at the second (a commit of the user's), holding
 * the third's files (a snapshot) as changes on top of it: what was untracked stays untracked.
 */
export const WORKTREE_SCRIPT = String.raw`set -u
${LOCATE}
dest=$1; base=$2; snapshot=$3
git worktree add -q --no-checkout --detach "$dest" "$base" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
cd "$dest" && git read-tree "$snapshot" && git checkout-index -a -q && git reset -q
`;
