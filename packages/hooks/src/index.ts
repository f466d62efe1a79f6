// @skein/hooks — lifecycle hooks as Codex 0.171.0 runs them. Re-exports only.
export { discoverHooks, isValidMatcher, matcherSelects, type ConfiguredHook, type HookCatalog, type HookError, type HookLayer, type HookSource } from './discover-hooks.js';
export { HookEngine, type HookEngineOptions, type HookEventOutcome, type HookEventRequest, type HookRunSummary, type McpToolHookAnswer, type McpToolHookCall } from './hook-engine.js';
export { configName as hookConfigName, HOOK_EVENTS } from './hook-events.js';
export { BYPASS_HOOK_TRUST_WARNING, hookHash, trustStatus, type HookDefinition, type HookHandler, type HookTrustStatus } from './hook-trust.js';
export { commandHookResult, outputResult, type HookEntry, type HookResult } from './hook-result.js';
export { MAX_HOOK_OUTPUT_BYTES, runCommandHook, type CommandHookExit, type CommandHookRun } from './run-command-hook.js';
export { DEFAULT_HOOK_TIMEOUT_SEC } from './hook-config.js';
