import { wrapUpNotice } from '@agentloop/prompts';
import type { AssistantMessage, Message, ModelChunk } from '@agentloop/spec';
import type { ToolCallOutcome } from '@agentloop/tools';
import { parseToolArguments } from '@agentloop/tools/internal';
import type { StepEvent, ToolProtocolAdapter } from './tool-protocol.js';

const NOTHING: readonly StepEvent[] = [];

/** Tools travel in the API request and calls come back as the provider's structured tool calls. */
export const nativeToolProtocol: ToolProtocolAdapter = {
  name: 'native',

  requestTools(tools) {
    // Requiring a tool call keeps the model in the loop; providers fall back to `auto` where the API
    // forbids it (Anthropic with extended thinking).
    return { tools, toolChoice: 'required' };
  },

  createDecoder() {
    return { decode: decodeNativeChunk, flush: () => [] };
  },

  assistantMessage(_step, parts): AssistantMessage {
    // A copy the size of its parts: the step's list grew by push, which leaves room for 17 parts (about
    // 150 bytes for the usual two), and the memory keeps every step's message for the whole loop.
    return { role: 'assistant', content: parts.slice() };
  },

  resultMessages(outcomes: readonly ToolCallOutcome[]): Message[] {
    if (outcomes.length === 0) return [];
    return [
      {
        role: 'tool',
        content: outcomes.map((outcome) => ({
          type: 'tool-result',
          toolCallId: outcome.toolCallId,
          toolName: outcome.toolName,
          content: outcome.content,
          // Providers that take images in tool results send these; the content describes them for the rest.
          ...(outcome.status === 'ok' && outcome.images?.length ? { images: outcome.images } : {}),
          isError: outcome.status === 'error',
        })),
      },
    ];
  },

  reminder(consecutive) {
    const last =
      consecutive >= 2
        ? ' This is the last reminder: a reply without a tool call now ends your turn as a message to the user.'
        : '';
    return `Your last response did not call a tool, so it did not reach the user. Every response must call a tool: call \`task_completion\` if the task is done, \`ask_question\` if you need the user's input, \`converse\` to reply to the user, or another tool to go on with the task.${last}`;
  },

  wrapUpNotice: () => wrapUpNotice('native'),
};

/** The step events of one provider chunk in native mode (also used for the non-text chunks of XML mode). */
export function decodeNativeChunk(chunk: ModelChunk): readonly StepEvent[] {
  switch (chunk.type) {
    case 'tool-call': {
      const parsed = parseToolArguments(chunk.input);
      const base = { type: 'tool-call' as const, toolCallId: chunk.toolCallId, toolName: chunk.toolName };
      const metadata = chunk.providerMetadata ? { providerMetadata: chunk.providerMetadata } : {};
      if (parsed.ok) {
        return [
          { type: 'tool-call', call: { ...base, arguments: parsed.value, ...metadata, repaired: parsed.repaired } },
        ];
      }
      const code = parsed.problem === 'cut_off' ? 'truncated_arguments' : 'invalid_arguments';
      return [
        {
          type: 'tool-call',
          call: { ...base, arguments: {}, ...metadata, problem: { code, message: parsed.message } },
        },
      ];
    }
    case 'thinking-end': {
      const { type: _type, ...part } = chunk;
      return [{ type: 'thinking-end', part }];
    }
    case 'tool-call-start':
    case 'text-delta':
    case 'thinking-delta':
    case 'usage':
    case 'finish':
    case 'retry':
      return [chunk];
    default:
      return NOTHING;
  }
}
