// Keeps only the context fragments an extension rendered through a definition it declared: a
// fragment history cannot recognise would be taken for a user turn after a resume.
import type { Extension } from '@skein/extension-api';
import { ContextFragment } from '@skein/protocol';

/** `fragments` without those `extension` did not declare (each dropped one is reported through `warn`). */
export function declaredFragments(extension: Extension | undefined, fragments: readonly unknown[], warn: (message: string) => void): ContextFragment[] {
  const id = extension?.id ?? 'unknown';
  const kept: ContextFragment[] = [];
  for (const candidate of fragments) {
    const parsed = ContextFragment.safeParse(candidate);
    if (!parsed.success) {
      warn(`extension '${id}' returned a context fragment that is not one (${parsed.error.issues[0]?.message ?? 'invalid'}); it was dropped`);
      continue;
    }
    const fragment = parsed.data;
    const definition = extension?.fragments?.find((declared) => declared.kind === fragment.kind);
    if (definition === undefined || definition.role !== fragment.role || !definition.matches(fragment.text)) {
      warn(`extension '${id}' sent a '${fragment.kind}' context fragment that none of its declared fragments renders; it was dropped`);
      continue;
    }
    kept.push(fragment);
  }
  return kept;
}
