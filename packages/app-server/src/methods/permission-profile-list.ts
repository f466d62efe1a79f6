// `permissionProfile/list`: the profiles a thread may run under. Skein has Codex's three built-ins
// and reads no `[permissions.*]` tables or managed requirements, so the list is the built-ins, in
// Codex's order, each allowed; `cwd` (whose project config could add profiles) changes nothing.
import { AppServerErrorCode, PermissionProfileListParams, type PermissionProfileListResponse, type PermissionProfileSummary } from '@skein/protocol';
import { BUILT_IN_PERMISSION_PROFILES } from '@skein/sandboxing';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';

/** The `permissionProfile/list` method. */
export const PERMISSION_PROFILE_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'permissionProfile/list',
    defineMethod({
      params: PermissionProfileListParams,
      handle(params): PermissionProfileListResponse {
        const profiles = Object.keys(BUILT_IN_PERMISSION_PROFILES).map((id): PermissionProfileSummary => ({ id, description: null, allowed: true }));
        // A well-formed offset past the end is its own error in Codex, not an invalid cursor.
        const offset = params.cursor === undefined || params.cursor === null || !/^\d{1,15}$/.test(params.cursor) ? undefined : Number(params.cursor);
        if (offset !== undefined && offset > profiles.length) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `cursor ${offset} is past the end of the ${profiles.length} permission profiles`);
        }
        return paginate(profiles, params);
      },
    }),
  ],
]);
