// Where the real Codex 0.171.0 binary is: the static binary in the platform package that
// `@openai/codex` (a devDependency) pulls in as an optional dependency.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const TARGETS = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
};

/**
 * The path of the codex binary for this platform, or `{ missing: reason }` when this platform has
 * none or the package is not installed.
 */
export function resolveCodexBinary() {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target === undefined) return { missing: `@openai/codex ships no binary for ${process.platform}-${process.arch}` };
  const [platformPackage, triple] = target;
  let packageJson;
  try {
    const fromCodex = createRequire(createRequire(import.meta.url).resolve('@openai/codex/package.json'));
    packageJson = fromCodex.resolve(`${platformPackage}/package.json`);
  } catch (error) {
    return { missing: `${platformPackage} is not installed (${error.message})` };
  }
  const binary = path.join(path.dirname(packageJson), 'vendor', triple, 'bin', 'codex');
  return existsSync(binary) ? { binary } : { missing: `${binary} does not exist` };
}
