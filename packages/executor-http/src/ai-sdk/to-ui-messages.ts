import type { Message } from '@agentloop/core';
import { isLoopControlToolName } from '@agentloop/core';
import { loopControlText } from '../agui/to-agui-messages.js';
import type { AgentloopDataTypes } from './ui-message-chunk.js';

/** A part of a UI message as `GET /api/chat/:id/messages` gives it: the AI SDK 6 `UIMessage` part shapes. */
export type StoredUiPart =
  | { type: 'step-start' }
  | { type: 'text'; text: string; state: 'done' }
  | { type: 'reasoning'; text: string; state: 'done' }
  | {
      type: `tool-${string}`;
      toolCallId: string;
      state: 'input-available' | 'approval-requested' | 'output-available' | 'output-error';
      input: unknown;
      output?: unknown;
      errorText?: string;
      approval?: { id: string };
    }
  | { type: 'data-agentloop-question'; data: AgentloopDataTypes['agentloop-question'] }
  | { type: 'data-agentloop-result'; data: AgentloopDataTypes['agentloop-result'] }
  | { type: 'data-agentloop-elicitation'; id: string; data: AgentloopDataTypes['agentloop-elicitation'] };

/** A call of the running run that waits for the user's approval. */
export interface WaitingApproval {
  requestId: string;
  toolCallId: string;
  /** The tool's name. */
  name: string;
  arguments: unknown;
}

/** A UI message of a stored conversation. */
export interface StoredUiMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: StoredUiPart[];
}

/**
 * A stored conversation as the AI SDK's UI messages, the `messages` a `useChat` starts from after a
 * reload: each user message, and the assistant's messages and tool results up to the next one as one
 * assistant message with a step per model call, as the stream showed them. A loop-control call becomes its
 * text (with the question's or result's data part), a tool call its part with the result the model saw.
 * A call that waits for approval (`waitingApprovals`, of the running run) is the SDK's approval request,
 * so that the chat can answer it; the store keeps a turn once it ended, so such a call is mostly not in
 * `messages` yet, and comes in an assistant message of its own at the end, with the run's elicitations
 * that wait (`waitingElicitations`) as their data parts, for the chat to show. System messages stay on the
 * server. Ids are the message's place in the conversation, stable across reads of the same session.
 */
export function toUiMessages(
  messages: readonly Message[],
  options: {
    sessionId: string;
    runId?: string;
    waitingApprovals?: readonly WaitingApproval[];
    waitingElicitations?: readonly AgentloopDataTypes['agentloop-elicitation'][];
  },
): StoredUiMessage[] {
  const waiting = new Map((options.waitingApprovals ?? []).map((approval) => [approval.toolCallId, approval]));
  const converted: StoredUiMessage[] = [];
  const toolParts = new Map<string, Extract<StoredUiPart, { toolCallId: string }>>();
  let assistant: StoredUiMessage | undefined;
  messages.forEach((message, index) => {
    const id = `${options.sessionId}-${index}`;
    if (message.role === 'user') {
      assistant = undefined;
      converted.push({ id, role: 'user', parts: [{ type: 'text', text: textOf(message.content), state: 'done' }] });
    } else if (message.role === 'assistant') {
      if (!assistant) {
        assistant = { id, role: 'assistant', parts: [] };
        converted.push(assistant);
      }
      assistant.parts.push({ type: 'step-start' });
      for (const part of message.content) {
        if (part.type === 'thinking' && part.text !== '') {
          assistant.parts.push({ type: 'reasoning', text: part.text, state: 'done' });
        } else if (part.type === 'text' && part.text !== '') {
          assistant.parts.push({ type: 'text', text: part.text, state: 'done' });
        } else if (part.type === 'tool-call' && isLoopControlToolName(part.toolName)) {
          assistant.parts.push(...loopControlParts(part.toolName, part.arguments));
        } else if (part.type === 'tool-call') {
          const approvalId = waiting.get(part.toolCallId)?.requestId;
          waiting.delete(part.toolCallId);
          const toolPart: Extract<StoredUiPart, { toolCallId: string }> = {
            type: `tool-${part.toolName}`,
            toolCallId: part.toolCallId,
            state: approvalId === undefined ? 'input-available' : 'approval-requested',
            input: part.arguments,
            ...(approvalId === undefined ? {} : { approval: { id: approvalId } }),
          };
          toolParts.set(part.toolCallId, toolPart);
          assistant.parts.push(toolPart);
        }
      }
    } else if (message.role === 'tool') {
      for (const result of message.content) {
        const toolPart = toolParts.get(result.toolCallId);
        if (!toolPart) continue;
        if (result.isError) Object.assign(toolPart, { state: 'output-error', errorText: result.content });
        else Object.assign(toolPart, { state: 'output-available', output: result.content });
      }
    }
  });
  const elicitations = options.waitingElicitations ?? [];
  if (waiting.size > 0 || elicitations.length > 0) {
    converted.push({
      id: `${options.sessionId}-run-${options.runId ?? 'waiting'}`,
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        ...[...waiting.values()].map(
          (approval): StoredUiPart => ({
            type: `tool-${approval.name}`,
            toolCallId: approval.toolCallId,
            state: 'approval-requested',
            input: approval.arguments,
            approval: { id: approval.requestId },
          }),
        ),
        ...elicitations.map(
          (elicitation): StoredUiPart => ({
            type: 'data-agentloop-elicitation',
            id: elicitation.requestId,
            data: elicitation,
          }),
        ),
      ],
    });
  }
  return converted;
}

function loopControlParts(toolName: string, args: unknown): StoredUiPart[] {
  const text = loopControlText(toolName, args) ?? '';
  const parts: StoredUiPart[] = text === '' ? [] : [{ type: 'text', text, state: 'done' }];
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (toolName === 'ask_question' && typeof record.question === 'string') {
    parts.push({
      type: 'data-agentloop-question',
      data: { question: record.question, suggestions: strings(record.suggestions) },
    });
  } else if (toolName === 'task_completion') {
    parts.push({
      type: 'data-agentloop-result',
      data: { result: record.result, artifacts: strings(record.artifacts) },
    });
  }
  return parts;
}

function textOf(content: readonly { text: string }[]): string {
  return content.map((part) => part.text).join('');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
