import type { ModelPricing, Usage } from '@agentloop/spec';
import { addUsage, emptyUsage } from '@agentloop/spec';
import type { ContextUsage } from './context-usage.js';
import type { AgentMetrics, RunMetrics } from './run-metrics.js';
import { usageCostUsd } from './usage-cost.js';

/** Figures that add up: a run's, or an agent's over all its runs. */
export class MetricsTotals {
  usage: Usage = emptyUsage();
  modelCalls = 0;
  modelTimeMs = 0;
  retries = 0;
  toolCalls = 0;
  toolErrors = 0;
  toolTimeMs = 0;
  compactions = 0;
  wallTimeMs = 0;
  runs = 0;
  context: ContextUsage | undefined;
  #costUsd = 0;
  /** Spending of a model without a price: the cost is then unknown. */
  #unpriced = false;
  /** Spending of a model with a price: there is a cost to report. */
  #priced = false;

  /** Adds tokens spent at `pricing` (absent: a model without a price). */
  spend(usage: Usage, pricing: ModelPricing | undefined): void {
    this.usage = addUsage(this.usage, usage);
    if (!pricing) this.#unpriced = true;
    else {
      this.#priced = true;
      this.#costUsd += usageCostUsd(usage, pricing);
    }
  }

  /**
   * Adds the tokens of a resumed session's earlier runs. Their cost was not saved, so once there are any,
   * the totals have no cost.
   */
  addSavedUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
    if (usage.inputTokens + usage.outputTokens > 0) this.#unpriced = true;
  }

  /** Adds another total's figures (a run's to its agent's); its context becomes the latest. */
  add(other: MetricsTotals): void {
    this.usage = addUsage(this.usage, other.usage);
    this.modelCalls += other.modelCalls;
    this.modelTimeMs += other.modelTimeMs;
    this.retries += other.retries;
    this.toolCalls += other.toolCalls;
    this.toolErrors += other.toolErrors;
    this.toolTimeMs += other.toolTimeMs;
    this.compactions += other.compactions;
    this.wallTimeMs += other.wallTimeMs;
    this.runs += other.runs;
    this.context = other.context ?? this.context;
    this.#costUsd += other.#costUsd;
    this.#unpriced ||= other.#unpriced;
    this.#priced ||= other.#priced;
  }

  /**
   * Adds what a sub-agent's run (an agent called as a tool) did and spent: tokens and their cost, model
   * calls, retries, tool calls and compactions. Not its wall time or tool time, which the parent's call
   * of it already counts, nor its context, which is not this conversation's.
   */
  addNested(metrics: RunMetrics): void {
    this.usage = addUsage(this.usage, metrics.usage);
    this.modelCalls += metrics.modelCalls;
    this.modelTimeMs += metrics.modelTimeMs;
    this.retries += metrics.retries;
    this.toolCalls += metrics.toolCalls;
    this.toolErrors += metrics.toolErrors;
    this.compactions += metrics.compactions;
    if (metrics.costUsd !== undefined) {
      this.#priced = true;
      this.#costUsd += metrics.costUsd;
    } else if (metrics.usage.inputTokens + metrics.usage.outputTokens > 0) this.#unpriced = true;
  }

  /** The figures as a run's metrics. */
  runMetrics(): RunMetrics {
    const cost = this.#priced && !this.#unpriced ? { costUsd: this.#costUsd } : {};
    return {
      usage: this.usage,
      modelCalls: this.modelCalls,
      modelTimeMs: this.modelTimeMs,
      retries: this.retries,
      toolCalls: this.toolCalls,
      toolErrors: this.toolErrors,
      toolTimeMs: this.toolTimeMs,
      compactions: this.compactions,
      wallTimeMs: this.wallTimeMs,
      ...cost,
      ...(this.context ? { context: this.context } : {}),
    };
  }

  /** The figures as an agent's metrics. */
  agentMetrics(): AgentMetrics {
    return { ...this.runMetrics(), runs: this.runs };
  }

  /**
   * Totals that start from saved figures (a resumed session's). A saved cost counts as priced spending;
   * saved figures without a cost, but with tokens, as spending of unknown cost.
   */
  static from(saved: AgentMetrics): MetricsTotals {
    const totals = new MetricsTotals();
    totals.usage = { ...saved.usage };
    totals.modelCalls = saved.modelCalls;
    totals.modelTimeMs = saved.modelTimeMs;
    totals.retries = saved.retries;
    totals.toolCalls = saved.toolCalls;
    totals.toolErrors = saved.toolErrors;
    totals.toolTimeMs = saved.toolTimeMs;
    totals.compactions = saved.compactions;
    totals.wallTimeMs = saved.wallTimeMs;
    totals.runs = saved.runs;
    totals.context = saved.context;
    if (saved.costUsd !== undefined) {
      totals.#priced = true;
      totals.#costUsd = saved.costUsd;
    } else if (saved.usage.inputTokens + saved.usage.outputTokens > 0) totals.#unpriced = true;
    return totals;
  }
}
