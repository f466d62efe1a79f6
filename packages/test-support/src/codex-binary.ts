// Where the real Codex 0.171.0 binary is: the static binary that `@openai/codex` pulls in through its
// platform package. Resolved from the calling package, whose devDependency it is.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const TARGETS: Readonly<Record<string, readonly [string, string]>> = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
};

/** The binary's path, or why there is none here; `from` is the caller's `import.meta.url`. */
export function resolveCodexBinary(from: string): { readonly binary: string; readonly missing?: undefined } | { readonly binary?: undefined; readonly missing: string } {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target === undefined) return { missing: `@openai/codex ships no binary for ${process.platform}-${process.arch}` };
  const [platformPackage, triple] = target;
  let manifest: string;
  try {
    const fromCodex = createRequire(createRequire(from).resolve('@openai/codex/package.json'));
    manifest = fromCodex.resolve(`${platformPackage}/package.json`);
  } catch (error) {
    return { missing: `${platformPackage} is not installed (${(error as Error).message})` };
  }
  const binary = path.join(path.dirname(manifest), 'vendor', triple, 'bin', 'codex');
  return existsSync(binary) ? { binary } : { missing: `${binary} does not exist` };
}
