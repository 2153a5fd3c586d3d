import type { AssistantMessage, Message, ToolMessage, Usage } from '@agentloop/spec';
import { emptyUsage, userMessage } from '@agentloop/spec';

/** A usage with these input and output tokens. */
export function usage(inputTokens: number, outputTokens: number): Usage {
  return { ...emptyUsage(), inputTokens, outputTokens };
}

/** One step of a conversation: an assistant's tool call and its result, with thinking and metadata to keep. */
export function toolStep(id: string, city = 'Oslo'): [AssistantMessage, ToolMessage] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: `Look up ${city}.`, signature: `sig-${id}` },
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool-call',
          toolCallId: id,
          toolName: 'weather',
          arguments: { city, units: { temperature: 'celsius' } },
          providerMetadata: { itemId: `fc_${id}` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: id, toolName: 'weather', content: `4°C in ${city}`, isError: false },
      ],
    },
  ];
}

/** A turn as the agent writes one: the input, a tool step, an answer. */
export function turnMessages(turn: number): Message[] {
  return [
    userMessage(`Question ${turn}: weather?`),
    ...toolStep(`call-${turn}`),
    { role: 'assistant', content: [{ type: 'text', text: `Answer ${turn}.` }] },
  ];
}
