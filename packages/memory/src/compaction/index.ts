export type { CompactionPlan } from './compaction-plan.js';
export { planCompaction } from './compaction-plan.js';
export type {
  CompactionKept,
  CompactionReason,
  CompactionRequest,
  CompactionResult,
  Compactor,
} from './compactor.js';
export type { DropMiddleCompactorOptions } from './drop-middle-compactor.js';
export { DropMiddleCompactor } from './drop-middle-compactor.js';
