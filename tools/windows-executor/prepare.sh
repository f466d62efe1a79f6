#!/usr/bin/env bash
# Prepares a real Windows executor for the tests: Codex's own Windows binary (the npm package
# @openai/codex-win32-x64 of the pinned Codex version) run by Wine, whose `codex exec-server`
# reports a Windows environment (powershell, `C:\…` paths) and serves its file system. Needs
# wine64 and the MinGW-w64 compiler (`apt-get install wine64 gcc-mingw-w64-x86-64-win32`).
# Idempotent: each part is made under a temporary name and renamed once complete, so an
# interrupted run leaves nothing that looks ready.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-.cache/windows-executor}
case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
VERSION=$(node -p 'require("./packages/cli/package.json").devDependencies["@openai/codex"]')
BIN="$OUT/codex-$VERSION"
WINE=$( { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || command -v wine64 || command -v wine || true)
if [ -z "$WINE" ]; then echo "windows-executor: wine64 is not installed" >&2; exit 1; fi
command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "windows-executor: x86_64-w64-mingw32-gcc is not installed" >&2; exit 1; }
mkdir -p "$OUT"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ ! -f "$BIN/codex.exe" ]; then
  echo "windows-executor: fetching @openai/codex@$VERSION-win32-x64 (about 190 MB)"
  npm pack --silent --pack-destination "$scratch" "@openai/codex@$VERSION-win32-x64" >/dev/null
  tar -xzf "$scratch"/*.tgz -C "$scratch" package/vendor/x86_64-pc-windows-msvc/bin/codex.exe
  mkdir -p "$BIN"
  mv "$scratch/package/vendor/x86_64-pc-windows-msvc/bin/codex.exe" "$BIN/codex.exe.part"
  mv "$BIN/codex.exe.part" "$BIN/codex.exe"
fi

DLL_SOURCE=tools/windows-executor/bcryptprimitives.c
if [ ! -f "$BIN/bcryptprimitives.dll" ] || [ "$DLL_SOURCE" -nt "$BIN/bcryptprimitives.dll" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -o "$BIN/bcryptprimitives.dll.part" "$DLL_SOURCE" tools/windows-executor/bcryptprimitives.def -ladvapi32
  mv "$BIN/bcryptprimitives.dll.part" "$BIN/bcryptprimitives.dll"
fi

export WINEDEBUG=-all
if [ ! -f "$OUT/prefix/.ready" ]; then
  echo "windows-executor: making the Wine prefix"
  rm -rf "$OUT/prefix.part" "$OUT/prefix"
  WINEPREFIX="$OUT/prefix.part" "$WINE" wineboot --init >/dev/null 2>&1
  # Wait until the prefix is written out (wineserver lives beside wine64 in Debian's package).
  server="$(dirname "$(readlink -f "$WINE")")/wineserver"
  [ -x "$server" ] || server=wineserver
  WINEPREFIX="$OUT/prefix.part" "$server" -w
  touch "$OUT/prefix.part/.ready"
  mv "$OUT/prefix.part" "$OUT/prefix"
fi
# The tests run the same Wine.
printf '%s\n' "$WINE" > "$OUT/wine.part" && mv "$OUT/wine.part" "$OUT/wine"
WINEPREFIX="$OUT/prefix" "$WINE" "$BIN/codex.exe" --version
echo "windows-executor: ready in $OUT"
