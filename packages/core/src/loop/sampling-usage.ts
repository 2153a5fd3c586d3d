import { addUsage } from '@agentloop/spec';
import type { AgentEventSink } from '../events/index.js';
import type { SamplingSpend } from '../requests/sampling-spend.js';
import { contextUsage } from '../tokens/context-usage.js';
import type { MetricsTotals } from '../tokens/metrics-totals.js';

/** Where the tokens of a run's sampling requests are added: the run's figures, read with the agent's. */
export interface SamplingUsageTotals {
  /** The run's figures: a sampling call's tokens, cost, time and the call itself are added to them. */
  readonly metrics: MetricsTotals;
  /** The agent's figures over its earlier runs, for the event's `sessionTotal`. */
  readonly sessionMetrics: MetricsTotals;
}

/**
 * Adds what a tool call's sampling requests spent to the run's figures, and announces each as a `usage`
 * event of the call, marked `sampling`, so that an executor that adds up `usage` events sees it too.
 * Called after the call, live or replayed from its journal record, so that the tokens count once either way.
 */
export function countSamplingUsage(
  totals: SamplingUsageTotals,
  events: AgentEventSink,
  call: { iteration: number; toolCallId: string; name: string },
  spent: readonly SamplingSpend[],
): void {
  const { metrics, sessionMetrics } = totals;
  for (const spend of spent) {
    metrics.modelCalls++;
    metrics.modelTimeMs += spend.durationMs;
    metrics.spend(spend.usage, spend.pricing);
    events.emit({
      type: 'usage',
      iteration: call.iteration,
      usage: spend.usage,
      total: metrics.usage,
      sessionTotal: addUsage(sessionMetrics.usage, metrics.usage),
      // The completion is not part of the conversation: its context is as the last model call left it.
      context: metrics.context ?? contextUsage(0, 0),
      finishReason: spend.finishReason,
      sampling: {
        toolCallId: call.toolCallId,
        name: call.name,
        ...(spend.server === undefined ? {} : { server: spend.server }),
      },
    });
  }
}
