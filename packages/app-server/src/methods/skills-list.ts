// `skills/list`: Skein loads no skills yet (the skills extension, issue #17, will answer here), so each
// requested directory gets an entry with no skills and no errors, in the shape Codex lists them.
import { SkillsListParams, type SkillsListResponse } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';

/** The `skills/list` method. */
export const SKILLS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'skills/list',
    defineMethod({
      params: SkillsListParams,
      handle(params, { server }): SkillsListResponse {
        // Codex echoes each cwd as sent (even "."), and lists for its working directory when none is
        // given. Codex would also list its bundled system skills here; Skein bundles none.
        const cwds = params.cwds === undefined || params.cwds.length === 0 ? [server.config.config.cwd] : params.cwds;
        return { data: cwds.map((cwd) => ({ cwd, skills: [], errors: [] })) };
      },
    }),
  ],
]);
