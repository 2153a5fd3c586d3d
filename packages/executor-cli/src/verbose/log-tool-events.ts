import type { Agent } from '@agentloop/core';
import { formatDuration, summarizeArguments } from '../render/index.js';
import { quote } from './describe-request.js';
import type { VerboseLog } from './verbose-log.js';

/** Logs each tool call and result of an agent to the verbose log; returns a function that stops it. */
export function logToolEvents(agent: Agent, log: VerboseLog, maxText = 240): () => void {
  return agent.onAny((event) => {
    if (event.type === 'tool-call') {
      log.write(() => [
        `· tool call ${event.name} (${event.toolCallId}): ${summarizeArguments(event.arguments, maxText, maxText)}`,
      ]);
    } else if (event.type === 'tool-result') {
      log.write(() => [
        `· tool result ${event.name} (${event.toolCallId}) in ${formatDuration(event.durationMs)}: ${quote(event.content, maxText)}`,
      ]);
    } else if (event.type === 'tool-result-error') {
      log.write(() => [
        `· tool error ${event.name} (${event.toolCallId}) in ${formatDuration(event.durationMs)}, ${event.code}: ${quote(event.content, maxText)}`,
      ]);
    }
  });
}
