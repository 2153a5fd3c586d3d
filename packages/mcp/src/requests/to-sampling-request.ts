import type { SamplingMessage, SamplingRequest } from '@agentloop/tools';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';

type McpSamplingMessage = CreateMessageRequest['params']['messages'][number];

/**
 * A server's `sampling/createMessage` in agentloop's terms. Text passes as it is; other content (images,
 * audio, tool calls and results) is named in words, since the request is answered with text.
 */
export function toSamplingRequest(
  server: string,
  params: CreateMessageRequest['params'],
  signal: AbortSignal,
): SamplingRequest {
  const preferences = params.modelPreferences;
  const hints = preferences?.hints?.flatMap((hint) => (hint.name ? [hint.name] : []));
  return {
    server,
    messages: params.messages.map(toSamplingMessage),
    ...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }),
    maxTokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
    ...(preferences
      ? {
          modelPreferences: {
            ...(hints && hints.length > 0 ? { hints } : {}),
            ...(preferences.costPriority === undefined ? {} : { costPriority: preferences.costPriority }),
            ...(preferences.speedPriority === undefined ? {} : { speedPriority: preferences.speedPriority }),
            ...(preferences.intelligencePriority === undefined
              ? {}
              : { intelligencePriority: preferences.intelligencePriority }),
          },
        }
      : {}),
    signal,
  };
}

function toSamplingMessage(message: McpSamplingMessage): SamplingMessage {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const text = blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'image':
          return `[an image (${block.mimeType}) the client cannot pass on]`;
        case 'audio':
          return `[audio (${block.mimeType}) the client cannot pass on]`;
        default:
          return `[${block.type} content the client cannot pass on]`;
      }
    })
    .join('\n');
  return { role: message.role, text };
}
