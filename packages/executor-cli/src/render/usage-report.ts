import type { AgentMetrics, ContextUsage, Usage } from '@agentloop/core';
import { formatContextFullness } from './compaction-line.js';
import type { Style } from './terminal.js';
import { formatCount, formatDuration } from './text-summary.js';

/** The usage of one model call. */
export interface StepUsage {
  /** The session's turn (1 for the first input). */
  turn: number;
  /** The model call within the turn (1 for the first). */
  step: number;
  usage: Usage;
  /** For a call that answered a sampling request: the MCP server that asked (or its tool's name). */
  sampling?: string;
}

/** What a session has used so far. */
export interface UsageStats {
  steps: readonly StepUsage[];
  total: Usage;
  turns: number;
  toolCalls: number;
  toolErrors: number;
  /** Time the agent spent running, in milliseconds. */
  agentMs: number;
  /** Time since the session began, in milliseconds. */
  sessionMs: number;
  /** How full the context window is now, when a model call has said. */
  context?: ContextUsage;
  /** The agent's own figures: model time, retries, tool time, compactions, cost. */
  metrics?: Pick<AgentMetrics, 'modelCalls' | 'modelTimeMs' | 'retries' | 'toolTimeMs' | 'compactions' | 'costUsd'>;
}

const COLUMNS = ['turn', 'step', 'input', 'output', 'cache read', 'reasoning'] as const;

/**
 * `/usage`: tokens per model call and in total, how full the context is, model and tool calls with their
 * time, compactions, the cost where the model has a price, and wall time. Shows the last `maxSteps` calls.
 */
export function formatUsageReport(stats: UsageStats, style: Style, maxSteps = 20): string {
  const shown = stats.steps.slice(-maxSteps);
  const row = (cells: readonly string[]) =>
    cells.map((cell, index) => (index < 2 ? cell.padEnd(5) : cell.padStart(11))).join(' ');
  const numbers = (usage: Usage) =>
    [usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.reasoningTokens].map(formatCount);
  const lines = [style.bold('Tokens per model call')];
  if (shown.length === 0) lines.push(style.dim('  (no model calls yet)'));
  else {
    lines.push(style.dim(`  ${row(COLUMNS)}`));
    if (stats.steps.length > shown.length)
      lines.push(style.dim(`  … ${stats.steps.length - shown.length} earlier calls`));
    for (const step of shown) {
      const label = step.sampling === undefined ? String(step.step) : `${step.step}*`;
      lines.push(`  ${row([String(step.turn), label, ...numbers(step.usage)])}`);
    }
    lines.push(style.bold(`  ${row(['total', '', ...numbers(stats.total)])}`));
    const askers = [...new Set(shown.flatMap((step) => (step.sampling === undefined ? [] : [step.sampling])))];
    if (askers.length > 0) {
      lines.push(
        style.dim(`  * a sampling request: the model answered ${askers.join(', ')} during the step's tool call`),
      );
    }
  }
  const { context, metrics } = stats;
  if (context) {
    lines.push(
      `Context: ${formatCount(context.usedTokens)} of ${formatCount(context.windowTokens)} tokens (${formatContextFullness(context.fraction)})`,
    );
  }
  if (metrics && metrics.modelCalls > 0) {
    const retries = metrics.retries > 0 ? `, ${metrics.retries} retr${metrics.retries === 1 ? 'y' : 'ies'}` : '';
    lines.push(`Model calls: ${metrics.modelCalls}${retries}, ${formatDuration(metrics.modelTimeMs)}`);
  }
  const errors = stats.toolErrors > 0 ? ` (${stats.toolErrors} failed)` : '';
  const toolTime = metrics && stats.toolCalls > 0 ? `, ${formatDuration(metrics.toolTimeMs)}` : '';
  lines.push(`Tool calls: ${stats.toolCalls}${errors}${toolTime}`);
  if (metrics && metrics.compactions > 0) lines.push(`Compactions: ${metrics.compactions}`);
  if (metrics && metrics.modelCalls > 0) {
    lines.push(
      metrics.costUsd === undefined
        ? `Cost: ${style.dim('not known (a model used has no price in the model table)')}`
        : `Cost: ${formatUsd(metrics.costUsd)}`,
    );
  }
  lines.push(
    `Wall time: ${formatDuration(stats.agentMs)} working in ${stats.turns} turn${stats.turns === 1 ? '' : 's'}, ${formatDuration(stats.sessionMs)} session`,
  );
  return `${lines.join('\n')}\n`;
}

/** `$0.0123` below a dollar, `$4.56` above. */
function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
