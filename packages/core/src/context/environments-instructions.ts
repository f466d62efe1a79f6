// The `<environments_instructions>` developer part a thread gets with `deferred_executor` on: what
// an environment is, what `starting` means, and when to wait for one. Codex 0.171.0's tag and
// place (after the permissions part); the words are Skein's.

/** The part's text. */
export const ENVIRONMENTS_INSTRUCTIONS = [
  '<environments_instructions>',
  '## Execution environments',
  'Each execution environment is a machine or workspace of its own, with its own files, shell and installed tools. `<environment_context>` lists the ones this task uses.',
  '',
  'An environment whose status is `starting` is still connecting and cannot be used yet. Once it is ready you will be told, and its files and commands become available.',
  '',
  'Call `wait_for_environment` only when the task needs that environment; keep working with what is already available meanwhile.',
  '</environments_instructions>',
].join('\n');
