import { z } from 'zod';

const PRICE = 'must be a price in US dollars per million tokens, e.g. 3 or 0.25';

/**
 * One `[models."NAME"]` table: what the configuration says about a model, over (or instead of) the model
 * table's entry. NAME is a model id, or the start of the ids it covers (`qwen3` for `qwen3-coder:30b`).
 */
export const modelEntrySchema = z
  .strictObject({
    /** The context window in tokens. */
    context_window: z.int('must be a whole number of tokens').positive('must be at least 1 token').optional(),
    /** The price of input tokens, in US dollars per million. */
    input_price: z.number(PRICE).nonnegative(PRICE).optional(),
    /** The price of output tokens, in US dollars per million. */
    output_price: z.number(PRICE).nonnegative(PRICE).optional(),
    /** Whether the model may make several tool calls per response. */
    parallel_tool_calls: z.boolean().optional(),
    /** The tool the model changes files with. */
    edit_tool: z.enum(['edit_file', 'apply_patch'], 'must be "edit_file" or "apply_patch"').optional(),
  })
  .refine((entry) => (entry.input_price === undefined) === (entry.output_price === undefined), {
    message: 'input_price and output_price go together: give both, in US dollars per million tokens',
  });

/** The `[models]` tables by model name. */
export const modelsSchema = z.record(z.string().trim().min(1, 'a model name must not be empty'), modelEntrySchema);

/** A `[models."NAME"]` table as written in a configuration file. */
export type ModelEntry = z.infer<typeof modelEntrySchema>;
