import { type ModelChunk, ProviderError, type Usage } from '@agentloop/spec';
import type {
  Usage as AnthropicUsage,
  MessageDeltaUsage,
  RawContentBlockDelta,
  RawContentBlockStartEvent,
  RawMessageStartEvent,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

type OpenBlock =
  | { type: 'text' }
  | { type: 'thinking'; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: string }
  | { type: 'ignored' };

const NONE: readonly ModelChunk[] = [];

/**
 * Turns the events of one Messages API stream into ModelChunks. Usage and `finish` come at
 * `message_stop`; a stream that ends before it is broken (`finish()` throws a `stream_broken` error).
 * A tool input cut off by `max_tokens` is still emitted as a call, so the loop can tell the model.
 */
export class AnthropicStreamReader {
  private readonly blocks = new Map<number, OpenBlock>();
  private usage: Partial<AnthropicUsage> = {};
  private stopReason: string | null | undefined;
  private finished = false;

  /** Whether `message_stop` came: nothing after it matters, so the caller may stop reading. */
  get complete(): boolean {
    return this.finished;
  }

  /** The chunks one event produces. */
  read(event: RawMessageStreamEvent): readonly ModelChunk[] {
    if (this.finished) return NONE;
    switch (event.type) {
      case 'message_start':
        return this.startMessage(event.message);
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.mergeUsage(event.usage);
        return NONE;
      case 'message_stop':
        return this.finishMessage();
      default:
        return NONE;
    }
  }

  /** Call when the stream ended: the chunks still owed, or a `stream_broken` error if it ended early. */
  finish(): readonly ModelChunk[] {
    if (this.finished) return NONE;
    // Some proxies drop `message_stop`; a `message_delta` with a stop reason is complete enough.
    if (this.stopReason) return this.finishMessage();
    throw new ProviderError('anthropic: the stream ended before the message was complete', {
      code: 'stream_broken',
      provider: 'anthropic',
    });
  }

  private startMessage(message: RawMessageStartEvent['message']): readonly ModelChunk[] {
    this.usage = { ...message.usage };
    this.stopReason = message.stop_reason ?? this.stopReason;
    // With programmatic tool calling, a call that code running on Anthropic's side makes arrives whole in
    // `message_start` (its tool_use block and `stop_reason`), and the stream goes straight to `message_stop`.
    const chunks: ModelChunk[] = [];
    (message.content ?? []).forEach((block, index) => {
      chunks.push(...this.startBlock(index, block as RawContentBlockStartEvent['content_block']));
      chunks.push(...this.stopBlock(index));
    });
    return chunks;
  }

  private startBlock(index: number, block: RawContentBlockStartEvent['content_block']): readonly ModelChunk[] {
    switch (block.type) {
      case 'text': {
        this.blocks.set(index, { type: 'text' });
        return block.text ? [{ type: 'text-delta', text: block.text }] : NONE;
      }
      case 'thinking': {
        this.blocks.set(index, { type: 'thinking', signature: block.signature ?? '' });
        return block.thinking ? [{ type: 'thinking-delta', text: block.thinking }] : NONE;
      }
      case 'redacted_thinking':
        this.blocks.set(index, { type: 'redacted_thinking', data: block.data });
        return NONE;
      case 'tool_use': {
        const input = block.input as Record<string, unknown> | null | undefined;
        const tool = {
          type: 'tool_use' as const,
          id: block.id,
          name: block.name,
          // A non-streamed block (see anthropic-message-events) or one inside `message_start` carries its
          // whole input here.
          input: input && Object.keys(input).length > 0 ? JSON.stringify(input) : '',
        };
        this.blocks.set(index, tool);
        return [{ type: 'tool-call-start', toolCallId: tool.id, toolName: tool.name }];
      }
      default:
        // Server tools and their results run on Anthropic's side; the loop has nothing to do with them.
        this.blocks.set(index, { type: 'ignored' });
        return NONE;
    }
  }

  private delta(index: number, delta: RawContentBlockDelta): readonly ModelChunk[] {
    const block = this.blocks.get(index);
    switch (delta.type) {
      case 'text_delta':
        return block?.type === 'text' ? [{ type: 'text-delta', text: delta.text }] : NONE;
      case 'thinking_delta':
        return block?.type === 'thinking' ? [{ type: 'thinking-delta', text: delta.thinking }] : NONE;
      case 'signature_delta':
        if (block?.type === 'thinking') block.signature += delta.signature;
        return NONE;
      case 'input_json_delta':
        if (block?.type === 'tool_use') block.input += delta.partial_json;
        return NONE;
      default:
        return NONE;
    }
  }

  private stopBlock(index: number): readonly ModelChunk[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    return block ? closeBlock(block) : NONE;
  }

  private finishMessage(): readonly ModelChunk[] {
    this.finished = true;
    const chunks: ModelChunk[] = [];
    // Blocks still open were cut off (max_tokens inside a tool input): close them with what arrived.
    for (const block of this.blocks.values()) chunks.push(...closeBlock(block));
    this.blocks.clear();
    chunks.push({ type: 'usage', usage: toUsage(this.usage) });
    chunks.push({
      type: 'finish',
      reason: mapAnthropicStopReason(this.stopReason),
      rawReason: this.stopReason ?? undefined,
    });
    return chunks;
  }

  private mergeUsage(delta: MessageDeltaUsage): void {
    // message_delta carries cumulative counts; null means "unchanged".
    for (const [key, value] of Object.entries(delta)) {
      if (value !== null && value !== undefined) (this.usage as Record<string, unknown>)[key] = value;
    }
  }
}

function closeBlock(block: OpenBlock): readonly ModelChunk[] {
  switch (block.type) {
    case 'thinking':
      return [{ type: 'thinking-end', ...(block.signature ? { signature: block.signature } : {}) }];
    case 'redacted_thinking':
      return [{ type: 'thinking-end', redactedData: block.data }];
    case 'tool_use':
      return [
        {
          type: 'tool-call',
          toolCallId: block.id,
          toolName: block.name,
          input: block.input === '' ? '{}' : block.input,
        },
      ];
    default:
      return NONE;
  }
}

function toUsage(
  usage: Partial<AnthropicUsage> & { output_tokens_details?: { thinking_tokens?: number } | null },
): Partial<Usage> {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    // Anthropic's input_tokens excludes cached tokens; the contract's includes them.
    inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: usage.output_tokens_details?.thinking_tokens ?? 0,
  };
}
