import type { FinishReason, Message, MessagePart } from '@agentloop/spec';

// Messages in the shape of the GenAI conventions' input and output message schemas
// (gen-ai-input-messages.json, gen-ai-output-messages.json), written on spans as JSON text because span
// attributes hold only primitives and arrays of them.

type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: string };

/** `gen_ai.system_instructions` of a system prompt. */
export function systemInstructionsJson(systemPrompt: string): string {
  return JSON.stringify([{ type: 'text', content: systemPrompt }]);
}

/** `gen_ai.input.messages` of a request's history. */
export function inputMessagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map((message) => ({ role: message.role, parts: message.content.map(genAiPart) })));
}

/** `gen_ai.input.messages` of a run's input. */
export function userInputJson(input: string): string {
  return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: input }] }]);
}

/** `gen_ai.output.messages` of one answer: its parts and why it ended. */
export function outputMessagesJson(parts: readonly MessagePart[], finishReason: string): string {
  return JSON.stringify([{ role: 'assistant', parts: parts.map(genAiPart), finish_reason: finishReason }]);
}

/** A finish reason in the conventions' words where they have one (`tool_call`, `content_filter`). */
export function genAiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
    case 'stop-sequence':
      return 'stop';
    case 'tool-calls':
      return 'tool_call';
    case 'content-filter':
      return 'content_filter';
    default:
      return reason;
  }
}

function genAiPart(part: MessagePart): GenAiPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', content: part.text };
    case 'thinking':
      return { type: 'reasoning', content: part.text };
    case 'tool-call':
      return { type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: part.arguments };
    case 'tool-result':
      return { type: 'tool_call_response', id: part.toolCallId, response: part.content };
  }
}
