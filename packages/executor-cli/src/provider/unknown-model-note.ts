import type { ProviderCapabilities } from '@agentloop/core';

/**
 * The `--verbose` note for a model the providers' model table does not know (its capabilities have no
 * family): what it was given instead, the configuration's `[models."NAME"]` settings included, and how to
 * describe it. Undefined for a known model. Such a model runs, only more cautiously than it might.
 */
export function unknownModelNote(capabilities: ProviderCapabilities): string | undefined {
  if (capabilities.family !== undefined) return undefined;
  const model = capabilities.modelId;
  const price = capabilities.pricing
    ? `$${capabilities.pricing.inputUsdPerMillion} in / $${capabilities.pricing.outputUsdPerMillion} out per million tokens`
    : 'no price, so no cost is shown';
  const calls = capabilities.parallelToolCalls ? 'several tool calls per response' : 'one tool call per response';
  return `model "${model}" is not in agentloop's model table; it runs with: context window ${capabilities.contextWindow} tokens, ${calls}, ${capabilities.editTool ?? 'edit_file'} to change files, ${price}. Describe it with a [models."${model}"] table in the configuration (context_window, input_price, output_price, parallel_tool_calls, edit_tool).`;
}
