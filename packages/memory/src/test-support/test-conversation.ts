import type { AssistantMessage, Message, ToolMessage } from '@agentloop/spec';
import { userMessage } from '@agentloop/spec';

// Builders of conversations for the compaction tests (not a test file itself).

/** A native step: an assistant message with `results.length` calls, and the tool message answering them. */
export function nativeStep(
  id: string,
  results: readonly string[],
  tool = 'read_file',
): [AssistantMessage, ToolMessage] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${id}.` },
        ...results.map((_, index) => ({
          type: 'tool-call' as const,
          toolCallId: `${id}-${index}`,
          toolName: tool,
          arguments: { path: `src/${id}-${index}.ts` },
        })),
      ],
    },
    {
      role: 'tool',
      content: results.map((content, index) => ({
        type: 'tool-result' as const,
        toolCallId: `${id}-${index}`,
        toolName: tool,
        content,
        isError: false,
      })),
    },
  ];
}

/** An XML step: the assistant's text with a `<tool>` block, and the user message of `<tool_result>` blocks. */
export function xmlStep(id: string, result: string): [AssistantMessage, Message] {
  return [
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: `Step ${id}.\n<tool>\n{"server_name":"local","tool_name":"read_file","arguments":{"path":"${id}"}}\n</tool>`,
        },
      ],
    },
    userMessage(`<tool_result tool_name="read_file">\n${result}\n</tool_result>`),
  ];
}

/** A text of `n` characters. */
export const chars = (n: number, letter = 'x') => letter.repeat(n);
