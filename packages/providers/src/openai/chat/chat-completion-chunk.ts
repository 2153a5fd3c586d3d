import type { WireChatChunk, WireChatDelta } from './wire-chat-chunk.js';

/** A non-streamed Chat Completions response, as loosely as servers send it. */
export interface WireChatCompletion {
  choices?: Array<{ index?: number; message?: WireChatDelta | null; finish_reason?: string | null }> | null;
  usage?: WireChatChunk['usage'];
}

/** The one stream chunk that carries a whole non-streamed response, so that it goes through the ChatStreamReader. */
export function chatCompletionChunk(completion: WireChatCompletion): WireChatChunk {
  return {
    usage: completion.usage,
    choices: (completion.choices ?? []).map((choice) => ({
      index: choice.index,
      finish_reason: choice.finish_reason,
      delta: choice.message
        ? {
            ...choice.message,
            tool_calls: choice.message.tool_calls?.map((call, index) => ({ ...call, index: call.index ?? index })),
          }
        : null,
    })),
  };
}
