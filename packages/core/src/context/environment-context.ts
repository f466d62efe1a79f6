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

/**
 * One attached environment as the model is told it: its id, cwd (as that machine spells it), and
 * its shell once it is ready; one still connecting (`deferred_executor`) or that failed to connect
 * says so instead.
 */
export type AttachedEnvironmentContext = {
  readonly id: string;
  readonly cwd: string;
} & ({ readonly status: 'ready'; readonly shell: string } | { readonly status: 'starting' } | { readonly status: 'failed'; readonly error: string });

/** Everything the fragment states. */
export interface EnvironmentContext {
  /** The primary environment's cwd. */
  readonly cwd: string;
  readonly shell: string;
  /**
   * Every attached environment in selection order. With two or more, or one that is not ready, they
   * replace `cwd` and `shell` as an `<environments>` list (by id), so the model can name one in a
   * call; the primary is the first ready one.
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

/** Whether the environments are listed one by one rather than as the primary's `<cwd>` and `<shell>`. */
function listsEnvironments(environments: readonly AttachedEnvironmentContext[]): boolean {
  return environments.length > 1 || environments.some((environment) => environment.status !== 'ready');
}

/**
 * Renders the fragment text. `only` names the environments to list (an update that tells the model
 * what changed mid-turn); the others are left out, as Codex leaves them out.
 */
export function renderEnvironmentContext(context: EnvironmentContext, only?: ReadonlySet<string>): string {
  return renderFragment(context, locationLines(context, only));
}

/**
 * The update to send between turns when the fragment changed since `previous`: where the thread
 * works (`<cwd>` and `<shell>`, or the environments) only when that changed, then the rest in full,
 * as Codex sends it; undefined when nothing changed.
 */
export function renderEnvironmentContextUpdate(previous: EnvironmentContext, current: EnvironmentContext): string | undefined {
  const text = renderEnvironmentContext(current);
  if (text === renderEnvironmentContext(previous)) return undefined;
  const location = locationLines(current);
  return location.join('\n') === locationLines(previous).join('\n') ? renderFragment(current, []) : text;
}

function renderFragment(context: EnvironmentContext, location: readonly string[]): string {
  // No roots, no element (as Codex).
  const roots = context.workspaceRoots.length === 0 ? '' : `<workspace_roots>${context.workspaceRoots.map((root) => `<root>${escapeXml(root)}</root>`).join('')}</workspace_roots>`;
  const environments = context.environments ?? [];
  const primary = environments.find((environment) => environment.status === 'ready');
  const body = [
    ...location,
    `  <current_date>${context.currentDate}</current_date>`,
    `  <timezone>${escapeXml(context.timezone)}</timezone>`,
    // Nothing can touch a file system until an environment is ready.
    ...(environments.length > 0 && primary === undefined ? [] : [`  <filesystem>${roots}${renderProfile(context.permissionProfile)}</filesystem>`]),
  ].join('\n');
  return ENVIRONMENT_CONTEXT_FRAGMENT.render(body).text;
}

/** Where the thread works: the primary's `<cwd>` and `<shell>`, or the `<environments>` list (`only` those named). */
function locationLines(context: EnvironmentContext, only?: ReadonlySet<string>): string[] {
  const environments = context.environments ?? [];
  const primary = environments.find((environment) => environment.status === 'ready');
  return listsEnvironments(environments)
    ? [
        '  <environments>',
        // Codex lists them by id; the primary is the first ready one in selection order.
        ...[...environments]
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .filter((environment) => only === undefined || only.has(environment.id))
          .flatMap((environment) => [
            // Without a ready environment there is no primary to mark.
            `    <environment id="${escapeAttribute(environment.id)}"${primary === undefined ? '' : ` primary="${environment === primary}"`}>`,
            `      <cwd>${escapeXml(environment.cwd)}</cwd>`,
            ...environmentState(environment),
            '    </environment>',
          ]),
        '  </environments>',
      ]
    : [`  <cwd>${escapeXml(context.cwd)}</cwd>`, `  <shell>${escapeXml(context.shell)}</shell>`];
}

/**
 * The update to send when the environments changed since `previous` was rendered (one finished
 * connecting, or failed to): the changed ones only, or the whole fragment when a single ready
 * environment is left; undefined when nothing changed.
 */
export function renderEnvironmentsUpdate(previous: EnvironmentContext, current: EnvironmentContext): string | undefined {
  const before = new Map((previous.environments ?? []).map((environment) => [environment.id, environmentLines(previous, environment)]));
  const environments = current.environments ?? [];
  const changed = new Set(environments.filter((environment) => before.get(environment.id) !== environmentLines(current, environment)).map((environment) => environment.id));
  if (changed.size === 0) return undefined;
  return renderEnvironmentContext(current, listsEnvironments(environments) ? changed : undefined);
}

/** One environment's lines as `context` renders them, to compare two renderings. */
function environmentLines(context: EnvironmentContext, environment: AttachedEnvironmentContext): string {
  const primary = context.environments?.find((candidate) => candidate.status === 'ready');
  return JSON.stringify([environment.cwd, environment === primary, ...environmentState(environment)]);
}

function environmentState(environment: AttachedEnvironmentContext): string[] {
  switch (environment.status) {
    case 'ready':
      return [`      <shell>${escapeXml(environment.shell)}</shell>`];
    case 'starting':
      return ['      <status>starting</status>'];
    case 'failed':
      return ['      <status>failed</status>', `      <error>${escapeXml(environment.error)}</error>`];
  }
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

// Zones whose date is UTC's. Servers and containers mostly run in one, and reading the date without
// ICU saves a short-lived process (`exec`) the ~10 ms its zone data takes to load (issue #18).
const UTC_ZONES = new Set(['Etc/UTC', 'UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu', 'Universal', 'Zulu']);
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The local date of `now` in `timezone`, as YYYY-MM-DD. */
export function localDate(now: Date, timezone: string): string {
  if (UTC_ZONES.has(timezone)) return now.toISOString().slice(0, 10);
  let format = dateFormats.get(timezone);
  if (format === undefined) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timezone, format);
  }
  return format.format(now);
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeXml(text).replaceAll('"', '&quot;');
}
