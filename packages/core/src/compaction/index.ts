export type { CompactionOption, CompactionOptions } from './compaction-options.js';
export { DEFAULT_COMPACTION_THRESHOLD } from './compaction-options.js';
export type { CompactionReport, ContextGuardInit, RequestFrame } from './context-guard.js';
export { ContextGuard } from './context-guard.js';
export type { SummarizingCompactorOptions } from './summarizing-compactor.js';
export { SummarizingCompactor } from './summarizing-compactor.js';
