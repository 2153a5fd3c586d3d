export type { ContextUsage } from './context-usage.js';
export { contextUsage } from './context-usage.js';
export { MetricsTotals } from './metrics-totals.js';
export type { AgentMetrics, RunMetrics } from './run-metrics.js';
export { usageCostUsd } from './usage-cost.js';
