import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message } from '@agentloop/core';
import { isLoopControlToolName } from '@agentloop/core';
import { exitToolMessage } from './run-ending.js';
import type { SessionUpdateMapper } from './session-update-mapper.js';

/**
 * A stored conversation as the updates `session/load` replays, so that the editor shows the session as it
 * was: the user's messages as `user_message_chunk`, the model's reasoning and text as thought and message
 * chunks, its tool calls and their results as they were shown live (the mapper's views: titles, diffs,
 * results), and the exit tools' calls as the agent's message. System messages are not shown.
 */
export function replayUpdates(messages: readonly Message[], mapper: SessionUpdateMapper): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        for (const part of message.content) {
          updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: part.text } });
        }
        break;
      case 'assistant':
        for (const part of message.content) {
          if (part.type === 'text') updates.push(mapper.messageChunk(part.text));
          else if (part.type === 'thinking' && part.text !== '') {
            updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part.text } });
          } else if (part.type === 'tool-call') {
            updates.push(
              ...(isLoopControlToolName(part.toolName)
                ? [mapper.messageChunk(exitToolMessage(part.toolName, part.arguments))]
                : mapper.map({
                    type: 'tool-call',
                    iteration: 0,
                    toolCallId: part.toolCallId,
                    name: part.toolName,
                    arguments: part.arguments,
                  })),
            );
          }
        }
        break;
      case 'tool':
        for (const part of message.content) {
          const base = { iteration: 0, toolCallId: part.toolCallId, name: part.toolName, content: part.content };
          updates.push(
            ...mapper.map(
              part.isError
                ? { type: 'tool-result-error', ...base, code: 'tool_failed', durationMs: 0 }
                : { type: 'tool-result', ...base, value: part.content, durationMs: 0 },
            ),
          );
        }
        break;
      case 'system':
        break;
    }
  }
  return updates;
}
