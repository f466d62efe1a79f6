// The `<environment_context>` fragment: where the agent runs and what it may touch, in the exact
// element layout Codex 0.171.0 sends (a user-message part, re-sent only when it changes).
import { ENVIRONMENT_CONTEXT_FRAGMENT } from '@skein/protocol';

/** A filesystem entry target: a concrete path, a glob pattern, or a special location (`:root`, `:tmpdir`, …). */
export type EnvironmentEntryTarget = { readonly path: string } | { readonly pattern: string } | { readonly special: string };

/** One filesystem permission entry as the model sees it. */
export interface EnvironmentEntry {
  readonly access: 'read' | 'write' | 'deny';
  readonly target: EnvironmentEntryTarget;
}

/** The permission profile: unrestricted (danger-full-access) or a managed list of entries. */
export type EnvironmentPermissionProfile =
  | { readonly type: 'disabled' }
  | { readonly type: 'managed'; readonly entries: readonly EnvironmentEntry[] };

/** One attached environment as the model is told it: its id, cwd (as that machine spells it) and shell. */
export interface AttachedEnvironmentContext {
  readonly id: string;
  readonly cwd: string;
  readonly shell: string;
}

/** Everything the fragment states. */
export interface EnvironmentContext {
  /** The primary environment's cwd. */
  readonly cwd: string;
  readonly shell: string;
  /**
   * Every attached environment, the primary first. With two or more, they replace `cwd` and `shell`
   * as an `<environments>` list, so the model can name one in a call.
   */
  readonly environments?: readonly AttachedEnvironmentContext[] | undefined;
  /** The local date, YYYY-MM-DD. */
  readonly currentDate: string;
  /** IANA time zone name, e.g. `Etc/UTC`. */
  readonly timezone: string;
  readonly workspaceRoots: readonly string[];
  readonly permissionProfile: EnvironmentPermissionProfile;
}

/** The tag the fragment starts with (its definition's open marker). */
export const ENVIRONMENT_CONTEXT_OPEN = ENVIRONMENT_CONTEXT_FRAGMENT.open;

/** Renders the fragment text. */
export function renderEnvironmentContext(context: EnvironmentContext): string {
  const roots = context.workspaceRoots.map((root) => `<root>${escapeXml(root)}</root>`).join('');
  const environments = context.environments ?? [];
  const where =
    environments.length > 1
      ? [
          '  <environments>',
          ...environments.flatMap((environment, index) => [
            `    <environment id="${escapeAttribute(environment.id)}" primary="${index === 0}">`,
            `      <cwd>${escapeXml(environment.cwd)}</cwd>`,
            `      <shell>${escapeXml(environment.shell)}</shell>`,
            '    </environment>',
          ]),
          '  </environments>',
        ]
      : [`  <cwd>${escapeXml(context.cwd)}</cwd>`, `  <shell>${escapeXml(context.shell)}</shell>`];
  const body = [
    ...where,
    `  <current_date>${context.currentDate}</current_date>`,
    `  <timezone>${escapeXml(context.timezone)}</timezone>`,
    `  <filesystem><workspace_roots>${roots}</workspace_roots>${renderProfile(context.permissionProfile)}</filesystem>`,
  ].join('\n');
  return ENVIRONMENT_CONTEXT_FRAGMENT.render(body).text;
}

function renderProfile(profile: EnvironmentPermissionProfile): string {
  if (profile.type === 'disabled') return '<permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile>';
  const entries = profile.entries
    .map(({ access, target }) => {
      if ('path' in target) return `<entry access="${access}"><path>${escapeXml(target.path)}</path></entry>`;
      if ('pattern' in target) return `<entry access="${access}"><glob_pattern>${escapeXml(target.pattern)}</glob_pattern></entry>`;
      return `<entry access="${access}"><special>:${escapeXml(target.special)}</special></entry>`;
    })
    .join('');
  return `<permission_profile type="managed"><file_system type="restricted">${entries}</file_system></permission_profile>`;
}

/** The local date of `now` in `timezone`, as YYYY-MM-DD. */
export function localDate(now: Date, timezone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeXml(text).replaceAll('"', '&quot;');
}
