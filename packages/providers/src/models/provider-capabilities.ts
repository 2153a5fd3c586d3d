import type { ProviderCapabilities } from '@agentloop/spec';
import type { ModelInfo } from './model-info.js';

/** What a provider for `modelId` tells the loop, from the model's table entry. */
export function providerCapabilities(modelId: string, info: ModelInfo): ProviderCapabilities {
  return {
    modelId,
    nativeTools: info.nativeTools,
    parallelToolCalls: info.parallelToolCalls,
    stopSequences: info.stopSequences,
    reasoning: info.reasoning,
    contextWindow: info.contextWindow,
    ...(info.pricing ? { pricing: info.pricing } : {}),
    ...(info.family === undefined ? {} : { family: info.family }),
    ...(info.editTool === undefined ? {} : { editTool: info.editTool }),
    ...(info.instructions === undefined || info.instructions === '' ? {} : { instructions: info.instructions }),
  };
}
