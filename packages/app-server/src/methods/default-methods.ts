// The method table a server starts with: every group in `methods/`. A new group is one more entry.
import type { AppServerMethod, MethodTable } from '../method.js';
import { ABSENT_FEATURE_METHODS } from './absent-features.js';
import { ACCOUNT_LOGIN_METHODS } from './account-login.js';
import { ACCOUNT_READ_METHODS } from './account-read.js';
import { ACCOUNT_RATE_LIMITS_READ_METHODS } from './account-rate-limits-read.js';
import { COLLABORATION_MODE_LIST_METHODS } from './collaboration-mode-list.js';
import { COMMAND_EXEC_METHODS } from './command-exec.js';
import { CONFIG_READ_METHODS } from './config-read.js';
import { CONFIG_REQUIREMENTS_READ_METHODS } from './config-requirements-read.js';
import { CONFIG_WRITE_METHODS } from './config-write.js';
import { ENVIRONMENT_METHODS } from './environments.js';
import { EXPERIMENTAL_FEATURE_ENABLEMENT_METHODS } from './experimental-feature-enablement.js';
import { EXPERIMENTAL_FEATURE_LIST_METHODS } from './experimental-feature-list.js';
import { FS_METHODS } from './fs.js';
import { FS_WATCH_METHODS } from './fs-watch.js';
import { FUZZY_FILE_SEARCH_METHODS } from './fuzzy-file-search.js';
import { HOOKS_LIST_METHODS } from './hooks-list.js';
import { MODEL_LIST_METHODS } from './model-list.js';
import { MODEL_PROVIDER_LIST_METHODS } from './model-provider-list.js';
import { PERMISSION_PROFILE_LIST_METHODS } from './permission-profile-list.js';
import { PROCESS_METHODS } from './process.js';
import { SKILLS_LIST_METHODS } from './skills-list.js';
import { PLUGIN_METHODS } from './plugins.js';
import { THREAD_READ_STATE_METHODS } from './thread-read-state.js';
import { THREAD_BACKGROUND_TERMINALS_METHODS } from './thread-background-terminals.js';
import { THREAD_COMPACT_METHODS } from './thread-compact.js';
import { MCP_SERVER_METHODS } from './mcp-servers.js';
import { THREAD_GOAL_METHODS } from './thread-goals.js';
import { THREAD_METADATA_METHODS } from './thread-metadata.js';
import { THREAD_SECTION_METHODS } from './thread-sections.js';
import { THREAD_ATTACHMENT_METHODS } from './thread-attachments.js';
import { THREAD_SETTINGS_METHODS } from './thread-settings.js';
import { THREAD_INJECT_ITEMS_METHODS } from './thread-inject-items.js';
import { THREAD_ITEMS_LIST_METHODS } from './thread-items-list.js';
import { THREAD_QUEUE_METHODS } from './thread-queue.js';
import { THREAD_TURNS_LIST_METHODS } from './thread-turns-list.js';
import { THREAD_REVERT_METHODS } from './thread-revert.js';
import { THREAD_METHODS } from './threads.js';
import { TURN_METHODS } from './turns.js';
import { THREAD_REALTIME_METHODS } from './thread-realtime.js';
import { FEEDBACK_SAVE_METHODS } from './feedback-save.js';
import { SERVER_DIAGNOSTICS_METHODS } from './server-diagnostics.js';
import { THREAD_ITEMS_READ_METHODS } from './thread-items-read.js';
import { THREAD_TIMELINE_LIST_METHODS } from './thread-timeline-list.js';
import { TURN_SETTINGS_UPDATE_METHODS } from './turn-settings-update.js';
import { REVIEW_START_METHODS } from './review-start.js';
import { THREAD_SEARCH_METHODS } from './thread-search.js';

const GROUPS: readonly ReadonlyMap<string, AppServerMethod>[] = [
  FS_METHODS,
  FS_WATCH_METHODS,
  CONFIG_READ_METHODS,
  CONFIG_REQUIREMENTS_READ_METHODS,
  ACCOUNT_READ_METHODS,
  ACCOUNT_LOGIN_METHODS,
  MODEL_LIST_METHODS,
  MODEL_PROVIDER_LIST_METHODS,
  EXPERIMENTAL_FEATURE_LIST_METHODS,
  SKILLS_LIST_METHODS,
  PLUGIN_METHODS,
  HOOKS_LIST_METHODS,
  COLLABORATION_MODE_LIST_METHODS,
  THREAD_METHODS,
  THREAD_READ_STATE_METHODS,
  THREAD_SETTINGS_METHODS,
  THREAD_METADATA_METHODS,
  THREAD_SECTION_METHODS,
  THREAD_ATTACHMENT_METHODS,
  THREAD_TURNS_LIST_METHODS,
  THREAD_REVERT_METHODS,
  THREAD_ITEMS_LIST_METHODS,
  THREAD_INJECT_ITEMS_METHODS,
  THREAD_QUEUE_METHODS,
  TURN_METHODS,
  THREAD_REALTIME_METHODS,
  THREAD_COMPACT_METHODS,
  MCP_SERVER_METHODS,
  THREAD_GOAL_METHODS,
  ENVIRONMENT_METHODS,
  PERMISSION_PROFILE_LIST_METHODS,
  ACCOUNT_RATE_LIMITS_READ_METHODS,
  COMMAND_EXEC_METHODS,
  PROCESS_METHODS,
  CONFIG_WRITE_METHODS,
  EXPERIMENTAL_FEATURE_ENABLEMENT_METHODS,
  THREAD_BACKGROUND_TERMINALS_METHODS,
  ABSENT_FEATURE_METHODS,
  FUZZY_FILE_SEARCH_METHODS,
  FEEDBACK_SAVE_METHODS,
  SERVER_DIAGNOSTICS_METHODS,
  THREAD_ITEMS_READ_METHODS,
  THREAD_TIMELINE_LIST_METHODS,
  TURN_SETTINGS_UPDATE_METHODS,
  REVIEW_START_METHODS,
  THREAD_SEARCH_METHODS,
];

/** Every method this server implements, by name (a new map each call). */
export function defaultMethods(): Map<string, AppServerMethod> {
  const table = new Map<string, AppServerMethod>();
  for (const group of GROUPS) for (const [name, method] of group) table.set(name, method);
  return table;
}

/** `extra` on top of the default methods (an entry there replaces the default of the same name). */
export function methodTable(extra: MethodTable = new Map()): MethodTable {
  const table = defaultMethods();
  for (const [name, method] of extra) table.set(name, method);
  return table;
}
