/** An output item of a response, with the fields the adapter reads. */
export type WireResponseItem =
  | {
      type: 'reasoning';
      id: string;
      encrypted_content?: string | null;
      summary?: Array<{ text: string }> | null;
      content?: Array<{ text: string }> | null;
    }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments?: string | null }
  /** A call of a custom tool, whose input is free-form text rather than JSON arguments. */
  | { type: 'custom_tool_call'; id?: string; call_id: string; name: string; input?: string | null }
  /** A call of the API's own apply_patch tool: one file's create, update or delete. */
  | {
      type: 'apply_patch_call';
      id?: string;
      call_id: string;
      status?: string;
      operation?: { type?: string; path?: string; diff?: string | null } | null;
    }
  | { type: 'message'; id?: string; content?: Array<{ type: string; text?: string; refusal?: string }> | null }
  | { type: string; id?: string };

/** Token usage of a response. */
export interface WireResponseUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** A response object, as `response.completed` / `incomplete` / `failed` carry it. */
export interface WireResponse {
  status?: string | null;
  output?: WireResponseItem[] | null;
  usage?: WireResponseUsage | null;
  error?: { code?: string | null; message?: string | null } | null;
  incomplete_details?: { reason?: string | null } | null;
}

/** The Responses API stream events the adapter reads (the SDK's ResponseStreamEvent, narrowed). */
export type WireResponseEvent =
  | { type: 'response.output_item.added' | 'response.output_item.done'; output_index?: number; item: WireResponseItem }
  | { type: 'response.reasoning_summary_part.added'; item_id: string; summary_index: number }
  | { type: 'response.reasoning_summary_text.delta' | 'response.reasoning_text.delta'; item_id: string; delta: string }
  | { type: 'response.output_text.delta' | 'response.refusal.delta'; item_id?: string; delta: string }
  | { type: 'response.function_call_arguments.delta'; item_id: string; delta: string }
  | { type: 'response.custom_tool_call_input.delta'; item_id: string; delta: string }
  | { type: 'response.apply_patch_call_operation_diff.delta'; item_id: string; delta: string }
  | { type: 'response.completed' | 'response.incomplete' | 'response.failed'; response: WireResponse }
  | { type: 'other' };
