import type { Usage } from '@agentloop/core';
import type { Style } from './terminal.js';
import { formatCount, formatDuration } from './text-summary.js';

/** The usage of one model call. */
export interface StepUsage {
  /** The session's turn (1 for the first input). */
  turn: number;
  /** The model call within the turn (1 for the first). */
  step: number;
  usage: Usage;
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
}

const COLUMNS = ['turn', 'step', 'input', 'output', 'cache read', 'reasoning'] as const;

/** `/usage`: tokens per model call and in total, tool calls, and wall time. Shows the last `maxSteps` calls. */
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
    for (const step of shown) lines.push(`  ${row([String(step.turn), String(step.step), ...numbers(step.usage)])}`);
    lines.push(style.bold(`  ${row(['total', '', ...numbers(stats.total)])}`));
  }
  const errors = stats.toolErrors > 0 ? ` (${stats.toolErrors} failed)` : '';
  lines.push(`Tool calls: ${stats.toolCalls}${errors}`);
  lines.push(
    `Wall time: ${formatDuration(stats.agentMs)} working in ${stats.turns} turn${stats.turns === 1 ? '' : 's'}, ${formatDuration(stats.sessionMs)} session`,
  );
  return `${lines.join('\n')}\n`;
}
