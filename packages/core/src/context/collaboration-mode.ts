// The `<collaboration_mode>` part Codex's code-mode models get after the permissions: how the agent
// works with the user in the mode it is in. Skein has one mode, Default (Codex's TUI also switches to
// Plan); the words are Skein's.
import { COLLABORATION_MODE_FRAGMENT } from '@skein/protocol';

const DEFAULT_MODE = [
  '# Collaboration Mode: Default',
  '',
  'You work on the task until it is done, using your tools without asking for permission at each step.',
  'Ask the user only when a decision is theirs to make or you cannot go on without an answer; otherwise make a reasonable choice and say what you chose.',
].join('\n');

/** The part, rendered. */
export function renderCollaborationMode(): string {
  return COLLABORATION_MODE_FRAGMENT.render(DEFAULT_MODE).text;
}
