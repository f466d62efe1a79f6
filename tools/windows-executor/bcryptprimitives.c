/*
 * bcryptprimitives.dll for Wine 8, which has none: Rust's standard library (1.78 and later) asks it
 * for random bytes (ProcessPrng, Windows 10+), so Codex's Windows binary cannot start under Wine 8
 * without it. Built next to codex.exe, where Windows looks for a DLL first.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) { return RtlGenRandom(data, (ULONG)len); }
