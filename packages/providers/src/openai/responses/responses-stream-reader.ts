import { type FinishReason, type ModelChunk, ProviderError } from '@agentloop/spec';
import { providerErrorFromResponse } from '../../errors/index.js';
import { type ApplyPatchOperation, applyPatchEnvelope } from './apply-patch-operation.js';
import type { WireResponse, WireResponseEvent, WireResponseItem, WireResponseUsage } from './wire-response-event.js';

interface FunctionCallState {
  itemId: string | undefined;
  callId: string;
  name: string;
  /** The JSON arguments of a function call, the free-form input of a custom tool call, or an apply_patch_call's diff. */
  arguments: string;
  emitted: boolean;
  /** True for a `custom_tool_call`, whose input is text, not JSON. */
  custom: boolean;
  /** For an `apply_patch_call` (the API's own apply_patch tool): its operation, whose diff is `arguments`. */
  applyPatch?: ApplyPatchOperation;
}

const NONE: readonly ModelChunk[] = [];

const INCOMPLETE_REASONS: Readonly<Record<string, FinishReason>> = {
  max_output_tokens: 'length',
  content_filter: 'content-filter',
};

/**
 * Turns the events of one Responses API stream into ModelChunks: reasoning summaries as thinking, closed
 * by a `thinking-end` that carries the encrypted reasoning (and the item id) for later turns; function
 * calls with streamed arguments, custom tool calls (free-form input) as calls with arguments `{ input }`, and the
 * API's own `apply_patch_call`s as calls of the `apply_patch` tool with arguments `{ patch }` (the one-file
 * operation in a `*** Begin Patch` envelope); `response.incomplete` as a finish with its reason; `response.failed` as
 * a ProviderError classified by its code.
 */
export class ResponsesStreamReader {
  private readonly calls = new Map<string, FunctionCallState>();
  private refused = false;
  private finished = false;

  constructor(private readonly provider: string) {}

  /** Whether the final response event came: nothing after it matters, so the caller may stop reading. */
  get complete(): boolean {
    return this.finished;
  }

  /** The chunks one event produces. */
  read(event: WireResponseEvent): readonly ModelChunk[] {
    if (this.finished) return NONE;
    switch (event.type) {
      case 'response.output_item.added':
        return this.itemAdded(event.item);
      case 'response.output_item.done':
        return this.itemDone(event.item);
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs.
        return event.summary_index > 0 ? [{ type: 'thinking-delta', text: '\n\n' }] : NONE;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return event.delta ? [{ type: 'thinking-delta', text: event.delta }] : NONE;
      case 'response.output_text.delta':
        return event.delta ? [{ type: 'text-delta', text: event.delta }] : NONE;
      case 'response.refusal.delta':
        this.refused = true;
        return event.delta ? [{ type: 'text-delta', text: event.delta }] : NONE;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
      case 'response.apply_patch_call_operation_diff.delta': {
        const call = this.calls.get(event.item_id);
        if (call) call.arguments += event.delta;
        return NONE;
      }
      case 'response.completed':
        return this.finishResponse(
          event.response,
          this.refused ? 'refusal' : this.calls.size > 0 ? 'tool-calls' : 'stop',
          'completed',
        );
      case 'response.incomplete': {
        const reason = event.response.incomplete_details?.reason ?? 'incomplete';
        return this.finishResponse(event.response, INCOMPLETE_REASONS[reason] ?? 'other', reason);
      }
      case 'response.failed':
        throw providerErrorFromResponse({
          provider: this.provider,
          status: undefined,
          headers: undefined,
          body: event.response.error ?? {},
          fallbackMessage: 'the response failed',
          offeredTools: false,
        });
      default:
        return NONE;
    }
  }

  /** Call when the stream ended: the chunks still owed (none), or a `stream_broken` error as `end` throws. */
  finish(): readonly ModelChunk[] {
    this.end();
    return NONE;
  }

  /** Call when the stream ended; throws a `stream_broken` error if no final response event came. */
  end(): void {
    if (this.finished) return;
    throw new ProviderError(`${this.provider}: the stream ended before the response was complete`, {
      code: 'stream_broken',
      provider: this.provider,
    });
  }

  private itemAdded(item: WireResponseItem): readonly ModelChunk[] {
    const call = callState(item);
    if (!call) return NONE;
    this.calls.set(call.itemId ?? call.callId, call);
    return [{ type: 'tool-call-start', toolCallId: call.callId, toolName: call.name }];
  }

  private itemDone(item: WireResponseItem): readonly ModelChunk[] {
    if (item.type === 'reasoning' && 'summary' in item) {
      if (!item.encrypted_content && !item.summary?.length) return NONE;
      return [
        {
          type: 'thinking-end',
          ...(item.encrypted_content ? { signature: item.encrypted_content } : {}),
          providerMetadata: { openai: { itemId: item.id } },
        },
      ];
    }
    const done = callState(item);
    if (!done) return NONE;
    const key = done.itemId ?? done.callId;
    const call = this.calls.get(key) ?? done;
    this.calls.set(key, call);
    // The item's own text is whole; the deltas before it may have been dropped by a proxy.
    if (done.arguments) call.arguments = done.arguments;
    if (done.applyPatch) call.applyPatch = done.applyPatch;
    return [this.emitCall(call)];
  }

  /** `cutOff`: the response ended before the call's item was done. */
  private emitCall(call: FunctionCallState, cutOff = false): ModelChunk {
    call.emitted = true;
    // A custom tool's input is free text: the loop's tools take a JSON object, so it arrives as `{ input }`,
    // and the metadata sends it back to the API as the custom_tool_call it was (see toResponsesInput).
    // An apply_patch_call arrives as a call of the `apply_patch` workspace tool with the patch it takes,
    // and the metadata sends it back as the apply_patch_call it was, operation and all.
    const applyPatch = call.applyPatch && applyPatchOperation(call.applyPatch, call.arguments);
    const input = applyPatch
      ? JSON.stringify({ patch: applyPatchEnvelope(applyPatch, { cutOff }) })
      : call.custom
        ? JSON.stringify({ input: call.arguments })
        : call.arguments;
    const openai = {
      ...(call.itemId ? { itemId: call.itemId } : {}),
      ...(call.custom ? { customToolCall: true } : {}),
      ...(applyPatch ? { applyPatchOperation: applyPatch } : {}),
    };
    return {
      type: 'tool-call',
      toolCallId: call.callId,
      toolName: call.name,
      input: input.trim() === '' ? '{}' : input,
      ...(Object.keys(openai).length > 0 ? { providerMetadata: { openai } } : {}),
    };
  }

  private finishResponse(response: WireResponse, reason: FinishReason, rawReason: string): readonly ModelChunk[] {
    this.finished = true;
    const chunks: ModelChunk[] = [];
    // Calls still open were cut off (an incomplete response): emit them with what arrived.
    for (const call of this.calls.values()) if (!call.emitted) chunks.push(this.emitCall(call, true));
    if (response.usage) chunks.push({ type: 'usage', usage: toUsage(response.usage) });
    chunks.push({ type: 'finish', reason, rawReason });
    return chunks;
  }
}

/** The state of a call that `item` starts or ends: a function call, a custom tool call or an apply_patch_call; undefined for other items. */
function callState(item: WireResponseItem): FunctionCallState | undefined {
  if (!('call_id' in item)) return undefined;
  if (item.type === 'function_call') {
    return {
      itemId: item.id,
      callId: item.call_id,
      name: item.name,
      arguments: item.arguments ?? '',
      emitted: false,
      custom: false,
    };
  }
  if (item.type === 'custom_tool_call') {
    return {
      itemId: item.id,
      callId: item.call_id,
      name: item.name,
      arguments: item.input ?? '',
      emitted: false,
      custom: true,
    };
  }
  if (item.type === 'apply_patch_call') {
    const operation = item.operation ?? {};
    return {
      itemId: item.id,
      callId: item.call_id,
      name: 'apply_patch',
      arguments: operation.diff ?? '',
      emitted: false,
      custom: false,
      applyPatch: { type: operation.type ?? '', path: operation.path ?? '' },
    };
  }
  return undefined;
}

/** The operation with the diff that arrived; a delete has none. */
function applyPatchOperation(operation: ApplyPatchOperation, diff: string): ApplyPatchOperation {
  return operation.type === 'delete_file' ? { type: operation.type, path: operation.path } : { ...operation, diff };
}

function toUsage(usage: WireResponseUsage) {
  return {
    // input_tokens already includes the cached tokens.
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
