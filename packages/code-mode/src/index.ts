export { CODE_MODE_HOST_FILE, CodeModeHost, DEFAULT_CELL_LIMITS } from './code-mode-host.js';
export type { CellStartOptions, CodeModeHostOptions } from './code-mode-host.js';
export { CellRun, MAX_CALLS_PER_CELL } from './cell-run.js';
export type { CellOutputItem, CellReport, CellTool } from './cell-run.js';
export type { CellEnd, CellLimits } from './host-protocol.js';
