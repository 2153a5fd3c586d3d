import type { AssistantMessage as AguiAssistantMessage, Message as AguiMessage } from '@ag-ui/core';
import type { Message } from '@agentloop/core';
import { isLoopControlToolName } from '@agentloop/core';

/**
 * The conversation as AG-UI messages, for MESSAGES_SNAPSHOT. System messages stay on the server; a
 * loop-control call (`task_completion`, `ask_question`, `converse`) becomes the text it carries for the
 * user, and its result (which only the model reads) is left out; reasoning becomes `reasoning` messages.
 * Ids are the message's place in the conversation, stable across snapshots of the same session.
 */
export function toAguiMessages(messages: readonly Message[], threadId: string): AguiMessage[] {
  const converted: AguiMessage[] = [];
  messages.forEach((message, index) => {
    const id = `${threadId}-${index}`;
    if (message.role === 'user') {
      converted.push({ id, role: 'user', content: message.content.map((part) => part.text).join('') });
    } else if (message.role === 'tool') {
      message.content.forEach((part, partIndex) => {
        if (isLoopControlToolName(part.toolName)) return;
        converted.push({
          id: `${id}-${partIndex}`,
          role: 'tool',
          toolCallId: part.toolCallId,
          content: part.content,
          ...(part.isError ? { error: part.content } : {}),
        });
      });
    } else if (message.role === 'assistant') {
      const reasoning = message.content.map((part) => (part.type === 'thinking' ? part.text : '')).join('');
      if (reasoning !== '') converted.push({ id: `${id}-reasoning`, role: 'reasoning', content: reasoning });
      let text = '';
      const toolCalls: NonNullable<AguiAssistantMessage['toolCalls']> = [];
      for (const part of message.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'tool-call') {
          const said = loopControlText(part.toolName, part.arguments);
          if (said !== undefined) text += (text === '' ? '' : '\n\n') + said;
          else {
            toolCalls.push({
              id: part.toolCallId,
              type: 'function',
              function: { name: part.toolName, arguments: JSON.stringify(part.arguments ?? {}) },
            });
          }
        }
      }
      if (text === '' && toolCalls.length === 0) return;
      converted.push({
        id,
        role: 'assistant',
        ...(text === '' ? {} : { content: text }),
        ...(toolCalls.length === 0 ? {} : { toolCalls }),
      });
    }
  });
  return converted;
}

/** What a loop-control call says to the user; undefined for any other tool. */
export function loopControlText(toolName: string, args: unknown): string | undefined {
  if (!isLoopControlToolName(toolName)) return undefined;
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const value =
    toolName === 'task_completion' ? record.result : toolName === 'ask_question' ? record.question : record.message;
  if (typeof value === 'string') return value;
  return value === undefined ? '' : JSON.stringify(value);
}
