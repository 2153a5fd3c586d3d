import type { Message, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';

/**
 * The stream events that would have delivered `message`, so that a non-streamed response goes through
 * the same AnthropicStreamReader as a streamed one.
 */
export function anthropicMessageEvents(message: Message): RawMessageStreamEvent[] {
  const events: RawMessageStreamEvent[] = [{ type: 'message_start', message: { ...message, content: [] } }];
  // A whole block at its start: the reader takes text, thinking with its signature and tool input from it.
  message.content.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: block });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence } as never,
    // A body without usage still ends its turn; the reader counts what it was told.
    usage: (message.usage ?? {}) as never,
  });
  events.push({ type: 'message_stop' });
  return events;
}
