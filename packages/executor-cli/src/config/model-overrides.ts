import type { ModelOverrides } from '@agentloop/providers';
import type { ModelEntry } from './models-schema.js';

/**
 * The `[models."NAME"]` tables as the providers' `models` option: each setting under the name the model
 * table gives it, those a table leaves out left to the model table.
 */
export function modelOverrides(models: Readonly<Record<string, ModelEntry>>): ModelOverrides {
  return Object.fromEntries(
    Object.entries(models).map(([name, entry]) => [
      name,
      {
        ...(entry.context_window === undefined ? {} : { contextWindow: entry.context_window }),
        ...(entry.input_price === undefined || entry.output_price === undefined
          ? {}
          : { pricing: { inputUsdPerMillion: entry.input_price, outputUsdPerMillion: entry.output_price } }),
        ...(entry.parallel_tool_calls === undefined ? {} : { parallelToolCalls: entry.parallel_tool_calls }),
        ...(entry.edit_tool === undefined ? {} : { editTool: entry.edit_tool }),
      },
    ]),
  );
}
