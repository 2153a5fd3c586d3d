import type { FinishReason, ModelPricing, Usage } from '@agentloop/spec';

/**
 * What one sampling request's model call spent, kept with the tool call that made it: the run adds it to
 * its usage and cost, live and when the call is replayed from a journal (so it is plain JSON).
 */
export interface SamplingSpend {
  /** The tokens the call used, as the provider reported them. */
  usage: Usage;
  /** The price of the model it ran on; absent for a model without a price (the cost is then unknown). */
  pricing?: ModelPricing;
  /** How the call ended: its finish reason, or `other` when it failed after spending tokens. */
  finishReason: FinishReason;
  /** How long the call took, in milliseconds. */
  durationMs: number;
  /** The MCP server that asked, when known. */
  server?: string;
}
