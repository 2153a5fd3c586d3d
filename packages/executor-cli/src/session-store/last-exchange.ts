import type { Message } from '@agentloop/core';
// From the contracts, not @agentloop/core: this module loads with the command, before core does.
import { messageText } from '@agentloop/spec';
import { LOOP_CONTROL_TOOLS } from '../render/index.js';

/** The user's last input and what the agent answered it with, as a resumed session shows them. */
export interface LastExchange {
  input: string | undefined;
  /** The answer: `done` (task_completion's result), `message` (converse, or text), `question` (ask_question). */
  answer: { kind: 'done' | 'message' | 'question'; text: string } | undefined;
}

// What the loop writes as user messages besides the user's input: XML tool results and environment diffs
// (`<tool_result …>`, `<environment_diff>`), and the reminder after a reply without a tool call.
const NOT_INPUT = /^(<[a-z_]+[\s>]|Your last response did not call a tool)/;

/**
 * The last exchange of a conversation: the last input the user typed, and the last loop-control call
 * after it (its result, message or question), or else the last text the agent wrote after it.
 */
export function lastExchange(messages: readonly Message[]): LastExchange {
  const inputIndex = messages.findLastIndex(
    (message) => message.role === 'user' && !NOT_INPUT.test(messageText(message).trimStart()),
  );
  const inputMessage = messages[inputIndex];
  const input = inputMessage ? messageText(inputMessage).trim() : undefined;
  let answer: LastExchange['answer'];
  for (const message of messages.slice(inputIndex + 1)) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call' || !LOOP_CONTROL_TOOLS.has(part.toolName)) continue;
      const text = payloadText(part.toolName, part.arguments as Record<string, unknown>);
      if (text !== undefined) answer = text;
    }
    const text = messageText(message).trim();
    if (!answer && text !== '' && !text.includes('<tool>')) answer = { kind: 'message', text };
  }
  return { input, answer };
}

function payloadText(toolName: string, args: Record<string, unknown>): LastExchange['answer'] {
  const field = toolName === 'task_completion' ? args.result : toolName === 'converse' ? args.message : args.question;
  if (typeof field !== 'string') {
    return field === undefined ? undefined : { kind: 'done', text: JSON.stringify(field) };
  }
  return {
    kind: toolName === 'task_completion' ? 'done' : toolName === 'converse' ? 'message' : 'question',
    text: field,
  };
}
